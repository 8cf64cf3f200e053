import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * What the web app's production build keeps of an endpoint (`defineEndpoint({ … })` in
 * `packages/contract`): what the client needs to call it and to say who may (method, path, tag,
 * status, access, rules, notApproved…). Its schemas (`params`, `query`, `body`, `headers`, `response`) and its
 * OpenAPI words (`summary`, `description`) are left out: the web client checks responses only in
 * development and tests (`src/lib/endpoint-client.ts`), the server checks every input, and forms
 * import the schemas they validate with by name, so those still arrive with the form's page.
 * Without this, a page that only reads data loaded zod and every schema of its endpoints (ADR 050).
 */
export const STRIPPED_KEYS: ReadonlySet<string> = new Set(['params', 'query', 'body', 'headers', 'response', 'summary', 'description']);

/** A contract source that declares endpoints. */
const CONTRACT_SOURCE = /[\\/]packages[\\/]contract[\\/]src[\\/].*\.ts$/;

/**
 * The source without the {@link STRIPPED_KEYS} of each `defineEndpoint` call's object, or null
 * when nothing changed. Only properties written `key: value` or `key` are removed; a spread stays
 * as it is (what it holds is not known here).
 */
export function stripEndpointSchemas(source: string, fileName = 'endpoints.ts'): string | null {
  if (!source.includes('defineEndpoint(')) return null;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineEndpoint') {
      const [spec] = node.arguments;
      if (spec && ts.isObjectLiteralExpression(spec)) {
        for (const property of spec.properties) {
          if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) continue;
          const name = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : undefined;
          if (name === undefined || !STRIPPED_KEYS.has(name)) continue;
          // The property and the comma after it: what is left stays a valid object.
          let end = property.getEnd();
          const rest = source.slice(end);
          const comma = /^\s*,/.exec(rest);
          if (comma) end += comma[0].length;
          cuts.push([property.getStart(file), end]);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (cuts.length === 0) return null;
  return dropUnusedImports(cut(source, cuts), fileName);
}

function cut(source: string, cuts: Array<[number, number]>): string {
  let out = source;
  for (const [start, end] of [...cuts].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
  return out;
}

/**
 * Removes the imported names nothing in the file uses any more, and an import left with none.
 * The sources are written with `verbatimModuleSyntax`, so the compiler keeps every import it is
 * given: without this, the schemas' modules (and zod) would still be loaded for nothing.
 */
function dropUnusedImports(source: string, fileName: string): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const used = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) used.add(node.text);
    ts.forEachChild(node, collect);
  };
  ts.forEachChild(file, collect);
  const cuts: Array<[number, number]> = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) continue;
    const elements = clause.namedBindings.elements;
    const unused = elements.filter((element) => !used.has(element.name.text));
    if (unused.length === 0) continue;
    if (unused.length === elements.length) {
      cuts.push([statement.getStart(file), statement.getEnd()]);
      continue;
    }
    for (const element of unused) {
      let end = element.getEnd();
      const comma = /^\s*,/.exec(source.slice(end));
      if (comma) end += comma[0].length;
      cuts.push([element.getStart(file), end]);
    }
  }
  return cut(source, cuts);
}

/** The production build's plugin; development and tests keep the whole table. */
export function stripEndpointSchemasPlugin(): Plugin {
  return {
    name: 'tay-strip-endpoint-schemas',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!CONTRACT_SOURCE.test(id.split('?')[0]!)) return null;
      const out = stripEndpointSchemas(code, id);
      return out === null ? null : { code: out, map: null };
    },
  };
}
