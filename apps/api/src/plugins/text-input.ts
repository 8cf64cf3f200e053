import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, type FieldErrors } from '@tay/contract';
import { errorBody } from './error-handler';

/** More than this many bad fields in one request says little more; the answer stays small. */
const MAX_FIELDS = 20;

// U+0000, or a surrogate (paired ones are checked again below: only unpaired ones are refused).
// eslint-disable-next-line no-control-regex -- U+0000 is what this looks for
const SUSPECT = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored, or null when it can. PostgreSQL refuses U+0000 in text and
 * in JSON, so the statement fails; an unpaired surrogate has no UTF-8 form, so the driver would
 * quietly store U+FFFD instead of what was sent. Other control characters are stored as sent.
 */
export function unstorable(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  const nul = text.indexOf('\u0000');
  const surrogate = text.search(LONE_SURROGATE);
  if (nul < 0 && surrogate < 0) return null;
  const isNul = nul >= 0 && (surrogate < 0 || nul < surrogate);
  const at = isNul ? nul : surrogate;
  const char = isNul
    ? 'an invisible NUL character (U+0000)'
    : `a broken character (an unpaired surrogate, U+${text.charCodeAt(at).toString(16).toUpperCase()})`;
  if (!/[\r\n]/.test(text)) return `This text has ${char}, which cannot be saved. ${isNul ? 'Remove it' : 'Type or paste it again'}.`;
  const line = text.slice(0, at).split(/\r\n|\r|\n/).length;
  if (!isNul) return `Line ${line} has ${char}, which cannot be saved. Type or paste it again.`;
  // Text of several lines is most likely a chosen file, and a file holding U+0000 is not text.
  return `This is not a text file: line ${line} has a NUL character (U+0000), which cannot be saved. If it is a spreadsheet, choose "Save as" or "Export" → CSV (comma-separated values) in it and use that file; if you typed it, remove the character.`;
}

/**
 * Every string in `value` (an object from JSON, a parsed query string, path parameters) that
 * cannot be stored, keyed by its dotted path (`owners.0.firstName`), as validation errors are.
 * `root` names a value that is itself a string. Iterative: a deeply nested body cannot exhaust
 * the stack.
 */
export function unstorableFields(value: unknown, root: string, into: FieldErrors = {}): FieldErrors {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0 && Object.keys(into).length < MAX_FIELDS) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = unstorable(current);
      if (problem) into[path || root] ??= problem;
      continue;
    }
    // Bytes (a file uploaded as it is) are no text: the route that takes them reads them itself.
    if (current === null || typeof current !== 'object' || ArrayBuffer.isView(current)) continue;
    const entries = Array.isArray(current) ? current.map((item, index) => [String(index), item] as const) : Object.entries(current);
    // Pushed in reverse so the first field of the request is reported first.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      if (unstorable(key)) {
        into[path || root] ??= 'A field name here has a character that cannot be saved (U+0000 or an unpaired surrogate).';
        continue;
      }
      stack.push({ value: item, path: path ? `${path}.${key}` : key });
    }
  }
  return into;
}

/** An object with no keys of its own (a route without path parameters, a URL without a query), or nothing. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/**
 * Refuses, before any route or validation sees them, path parameters, query strings and bodies
 * (JSON, the identity endpoints' bodies, a CSV sent as text) holding text that cannot be
 * stored: 400 naming each field, instead of a failed statement (500) or a CSV export that
 * breaks off after its first line. Once here, so no route can forget it.
 */
export const textInput = fp(
  async function textInput(app: FastifyInstance) {
    app.addHook('preValidation', (request, reply, done) => {
      // Most API calls are reads with no body and a short query: nothing to look through.
      if (request.body === undefined && isEmpty(request.params) && isEmpty(request.query)) {
        done();
        return;
      }
      const fields: FieldErrors = {};
      unstorableFields(request.params, 'params', fields);
      unstorableFields(request.query, 'query', fields);
      unstorableFields(request.body, 'body', fields);
      const names = Object.keys(fields);
      if (names.length === 0) {
        done();
        return;
      }
      // One field: its own sentence, for screens that show only the message (the payer import).
      const message = names.length === 1 ? fields[names[0]!]! : `Please correct the highlighted fields: ${names.join(', ')}.`;
      reply.status(400).send(errorBody(ErrorCode.ValidationFailed, message, fields));
    });
  },
  { name: 'text-input' },
);
