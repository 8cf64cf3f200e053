import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { STRIPPED_KEYS, stripEndpointSchemas } from './strip-endpoint-schemas';

const SOURCE = `import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint';
import { AREA } from '../common/areas';
import { BusinessIdParams, ThingResponse, type Thing } from './schemas';
import { ThingBody, THING_LIMIT } from './things';

const tag = AREA.things;
export const thingEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/things',
    summary: 'Adds a thing',
    description: 'Longer words ' + 'for the document',
    tag,
    access: 'business:operate',
    params: BusinessIdParams,
    body: ThingBody.extend({ note: z.string().optional() }),
    response: ThingResponse,
    errors: [409],
  }),
  file: defineEndpoint({ method: 'GET', path: '/api/things.csv', tag, access: 'public', response: { description: 'A file', contentTypes: ['text/csv'] } }),
};
export const limit: Thing | number = THING_LIMIT;
`;

/** The object each `defineEndpoint` call is given, evaluated after the strip (imports left out). */
function specsOf(source: string): Record<string, unknown>[] {
  const body = source.replace(/^import .*$/gm, '').replace(/export /g, '');
  const js = ts.transpileModule(body, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  const specs: Record<string, unknown>[] = [];
  new Function('defineEndpoint', 'AREA', 'THING_LIMIT', js)((spec: Record<string, unknown>) => specs.push(spec), { things: 'things' }, 3);
  return specs;
}

/** The stripped keys still found in an object given to `defineEndpoint`. */
function keysLeft(source: string): string[] {
  const left: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.getText() === 'defineEndpoint' && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
      for (const property of node.arguments[0].properties) {
        const name = property.name && ts.isIdentifier(property.name) ? property.name.text : '';
        if (STRIPPED_KEYS.has(name)) left.push(name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true));
  return left;
}

describe('stripEndpointSchemas', () => {
  it('keeps what the client calls with and leaves out the schemas and the words', () => {
    const out = stripEndpointSchemas(SOURCE)!;
    expect(specsOf(out)).toEqual([
      { method: 'POST', path: '/api/businesses/:id/things', tag: 'things', access: 'business:operate', errors: [409] },
      { method: 'GET', path: '/api/things.csv', tag: 'things', access: 'public' },
    ]);
  });

  it('drops the imports nothing uses any more, and keeps those still used', () => {
    const out = stripEndpointSchemas(SOURCE)!;
    expect(out).not.toMatch(/from 'zod'/);
    expect(out).not.toMatch(/BusinessIdParams|ThingResponse|ThingBody/);
    expect(out).toContain("import { defineEndpoint } from '../common/endpoint';");
    expect(out).toContain("import { AREA } from '../common/areas';");
    expect(out).toMatch(/import \{\s*type Thing \} from '\.\/schemas';/);
    expect(out).toMatch(/import \{\s*THING_LIMIT \} from '\.\/things';/);
  });

  it('leaves a source without endpoints alone', () => {
    expect(stripEndpointSchemas("import { z } from 'zod';\nexport const A = z.string();\n")).toBeNull();
  });

  it('gives a valid module for every source of the contract that declares endpoints', () => {
    const root = path.resolve(import.meta.dirname, '../../../packages/contract/src');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? walk(full) : name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
      });
    })(root);
    const stripped = files.map((file) => [file, stripEndpointSchemas(readFileSync(file, 'utf8'), file)] as const).filter(([, out]) => out !== null);
    expect(stripped.length).toBeGreaterThan(10);
    for (const [file, out] of stripped) {
      const parsed = ts.transpileModule(out!, { fileName: file, reportDiagnostics: true, compilerOptions: { verbatimModuleSyntax: true } });
      expect(parsed.diagnostics ?? [], file).toEqual([]);
      expect(keysLeft(out!), file).toEqual([]);
    }
  });
});
