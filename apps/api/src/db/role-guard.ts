/**
 * The embedded database's one session is opened by PGlite as its bootstrap superuser, and
 * PostgreSQL lets a session whose login was a superuser take that identity back whenever it likes
 * (`SET SESSION AUTHORIZATION`, `SET ROLE`). So once the app's role is in place, the server refuses
 * any statement that would change who the session is, or how the SQL after it is read (ADR 022).
 *
 * Statements are found by a scanner that knows PostgreSQL's comments, strings, quoted names and
 * dollar quoting: every statement of a message is looked at, not only the first. What SQL could
 * run indirectly is closed by privileges instead: the app's role has no EXECUTE on `set_config`,
 * no `DO` (no USAGE on plpgsql) and nowhere to create a function.
 */

/** Settings that decide the session's identity, or how the scanner must read the text. */
const GUARDED_SETTINGS = new Set([
  'role',
  'session_authorization',
  // SET SESSION AUTHORIZATION / RESET SESSION AUTHORIZATION, after SESSION is skipped.
  'authorization',
  // Off, a backslash would end a string where this scanner sees none ending.
  'standard_conforming_strings',
  // Another client encoding would let bytes mean other characters than the scanner decoded.
  'client_encoding',
  'names',
  'all',
]);

/** The statement that would change the session's role, named for the error, or null. */
export function roleChange(sql: string): string | null {
  for (const words of statementHeads(sql)) {
    const [first, ...rest] = words;
    if (first?.kind !== 'word') continue;
    if (first.text === 'discard') return 'DISCARD';
    if (first.text !== 'set' && first.text !== 'reset') continue;
    // SET [SESSION | LOCAL] …; RESET SESSION AUTHORIZATION.
    let i = 0;
    while (rest[i]?.kind === 'word' && (rest[i]!.text === 'session' || rest[i]!.text === 'local')) i++;
    const target = rest[i];
    if (!target) continue;
    // A U&"…" name may spell any setting; only a plain or quoted name is read.
    if (target.kind === 'other') return first.text.toUpperCase();
    if (GUARDED_SETTINGS.has(target.text)) {
      return `${first.text.toUpperCase()} ${target.text === 'authorization' ? 'SESSION AUTHORIZATION' : target.text.toUpperCase()}`;
    }
  }
  return null;
}

interface Token {
  /** A keyword or name (lower-cased), a quoted name (its text, lower-cased), or anything else. */
  kind: 'word' | 'quoted' | 'other';
  text: string;
}

const HEAD_LENGTH = 8;

/** The first few tokens of each statement of `sql` (statements end at `;`). */
export function statementHeads(sql: string): Token[][] {
  const heads: Token[][] = [];
  let head: Token[] = [];
  const push = (token: Token) => {
    if (head.length < HEAD_LENGTH) head.push(token);
  };
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = endOfComment(sql, i);
    } else if (c === ';') {
      if (head.length) heads.push(head);
      head = [];
      i++;
    } else if (c === "'") {
      i = endOfString(sql, i, false);
      push({ kind: 'other', text: '' });
    } else if (c === '"') {
      const end = endOfQuotedName(sql, i);
      push({
        kind: 'quoted',
        text: sql
          .slice(i + 1, end - 1)
          .replaceAll('""', '"')
          .toLowerCase(),
      });
      i = end;
    } else if (c === '$') {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        i = close < 0 ? n : close + tag[0].length;
      } else {
        i++;
        while (i < n && isDigit(sql[i]!)) i++;
      }
      push({ kind: 'other', text: '' });
    } else if (isDigit(c) || (c === '.' && isDigit(sql[i + 1] ?? ''))) {
      // A number, with any letters run on to it (PostgreSQL refuses those): 1e'…' is no E'…' string.
      i++;
      while (i < n && (isWordPart(sql[i]!) || sql[i] === '.' || ((sql[i] === '+' || sql[i] === '-') && /[eE]/.test(sql[i - 1]!)))) i++;
      push({ kind: 'other', text: '' });
    } else if (isWordStart(c)) {
      let end = i + 1;
      while (end < n && isWordPart(sql[end]!)) end++;
      const word = sql.slice(i, end);
      const next = sql[end];
      if (next === "'" && /^[eEbBxXnN]$/.test(word)) {
        // E'…' takes backslash escapes; B'…', X'…' and N'…' are plain strings.
        i = endOfString(sql, end, word === 'e' || word === 'E');
        push({ kind: 'other', text: '' });
      } else if ((word === 'u' || word === 'U') && next === '&' && (sql[end + 1] === "'" || sql[end + 1] === '"')) {
        i = sql[end + 1] === "'" ? endOfString(sql, end + 1, false) : endOfQuotedName(sql, end + 1);
        push({ kind: 'other', text: '' });
      } else {
        push({ kind: 'word', text: word.toLowerCase() });
        i = end;
      }
    } else {
      push({ kind: 'other', text: c });
      i++;
    }
  }
  if (head.length) heads.push(head);
  return heads;
}

/** Past the string literal opening at `start` ('…', with '' for a quote; \ escapes with E'…'). */
function endOfString(sql: string, start: number, backslashes: boolean): number {
  let i = start + 1;
  for (;;) {
    if (i >= sql.length) return sql.length;
    const c = sql[i]!;
    if (backslashes && c === '\\') {
      i += 2;
    } else if (c === "'") {
      if (sql[i + 1] === "'") i += 2;
      // PostgreSQL joins 'a' 'b' across a newline into one string; that is two strings here, which is the same for finding statements.
      else return i + 1;
    } else {
      i++;
    }
  }
}

function endOfQuotedName(sql: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const close = sql.indexOf('"', i);
    if (close < 0) return sql.length;
    if (sql[close + 1] === '"') i = close + 2;
    else return close + 1;
  }
}

/** Past the comment opening at `start`; /* comments nest in PostgreSQL. */
function endOfComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isWordStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c >= '\u0080';
}

function isWordPart(c: string): boolean {
  return isWordStart(c) || isDigit(c) || c === '$';
}

/** Defined in the session before it becomes the app's role; a refused statement calls it instead. */
export const REFUSAL_FUNCTION = `CREATE FUNCTION pg_temp.tay_refused(statement text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is refused: the embedded database''s session stays the app''s role', statement
    USING ERRCODE = 'insufficient_privilege';
END
$$`;

/** The SQL sent in place of a refused statement: it fails, as the statement would have, in the database itself. */
export function refusal(statement: string): string {
  // `statement` is built above from the guarded names only: letters, spaces and underscores.
  return `SELECT pg_temp.tay_refused('${statement.replace(/[^A-Z_ ]/g, '')}')`;
}
