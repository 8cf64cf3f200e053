import { describe, expect, it } from 'vitest';
import { refusal, roleChange } from './role-guard';

describe('roleChange: statements that would change the embedded session’s role', () => {
  it.each([
    ['SET ROLE postgres', 'SET ROLE'],
    ['set role postgres', 'SET ROLE'],
    ['SET LOCAL ROLE postgres', 'SET ROLE'],
    ['SET SESSION ROLE postgres', 'SET ROLE'],
    ['SET role TO DEFAULT', 'SET ROLE'],
    ['SET "role" = \'postgres\'', 'SET ROLE'],
    ['SET "ROLE" = \'postgres\'', 'SET ROLE'],
    ['RESET ROLE', 'RESET ROLE'],
    ['RESET "role"', 'RESET ROLE'],
    ['SET SESSION AUTHORIZATION postgres', 'SET SESSION AUTHORIZATION'],
    ['SET SESSION SESSION AUTHORIZATION postgres', 'SET SESSION AUTHORIZATION'],
    ['SET LOCAL SESSION AUTHORIZATION postgres', 'SET SESSION AUTHORIZATION'],
    ["SET session_authorization = 'postgres'", 'SET SESSION_AUTHORIZATION'],
    ['RESET SESSION AUTHORIZATION', 'RESET SESSION AUTHORIZATION'],
    ['RESET session_authorization', 'RESET SESSION_AUTHORIZATION'],
    ['RESET ALL', 'RESET ALL'],
    ['DISCARD ALL', 'DISCARD'],
    ['discard temp', 'DISCARD'],
    ['SET standard_conforming_strings = off', 'SET STANDARD_CONFORMING_STRINGS'],
    ["SET client_encoding = 'SJIS'", 'SET CLIENT_ENCODING'],
    ["SET NAMES 'SJIS'", 'SET NAMES'],
    ['SET U&"rol\\0065" = postgres', 'SET'],
    ['set/* in between */role/**/postgres', 'SET ROLE'],
    ['  \n\t SET\nROLE\npostgres', 'SET ROLE'],
    ['-- a comment\nSET ROLE postgres', 'SET ROLE'],
    ['/* nested /* comments */ still */ SET ROLE postgres', 'SET ROLE'],
    ['SELECT 1; SET ROLE postgres', 'SET ROLE'],
    ['BEGIN; SET LOCAL ROLE postgres; UPDATE t SET x = 1; COMMIT', 'SET ROLE'],
    ["SELECT ';' AS s; SET ROLE postgres", 'SET ROLE'],
    ['SELECT $$;$$; SET ROLE postgres', 'SET ROLE'],
    ["SELECT E'\\';'; SET ROLE postgres", 'SET ROLE'],
    ['SELECT "a;b" FROM t; SET ROLE postgres', 'SET ROLE'],
  ])('%s', (sql, refused) => {
    expect(roleChange(sql)).toBe(refused);
  });

  it.each([
    'SELECT 1',
    "UPDATE payment_requests SET state = 'Paid' WHERE id = $1",
    "SET LOCAL lock_timeout = '30s'",
    'SET statement_timeout = 0',
    'SET enable_seqscan = off',
    'RESET enable_seqscan',
    'SET TIME ZONE UTC',
    'SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE',
    'SET CONSTRAINTS ALL DEFERRED',
    'DEALLOCATE ALL',
    "SELECT 'SET ROLE postgres'",
    'SELECT $$; SET ROLE postgres; $$',
    'SELECT $tag$ $$; SET ROLE postgres; $$ $tag$',
    "SELECT E'it\\'s; SET ROLE postgres'",
    // standard_conforming_strings stays on (setting it is refused): a backslash is just a character.
    "SELECT '\\''; SET ROLE postgres; --'",
    'SELECT "SET ROLE postgres; x"',
    '-- SET ROLE postgres',
    '/* ; SET ROLE postgres */ SELECT 1',
    'SELECT a$b$ FROM t',
    "INSERT INTO t (settings) VALUES ('role')",
    'SELECT set_config_like FROM t',
  ])('%s is not one', (sql) => {
    expect(roleChange(sql)).toBeNull();
  });

  it('reads a number with letters run on as one token, as PostgreSQL does: 1e is no E-string', () => {
    // PostgreSQL refuses `1e'…'` outright; read as E'…' the second statement would hide in a string.
    expect(roleChange("SELECT 1e'\\'; SET ROLE postgres; --'")).toBe('SET ROLE');
  });

  it('makes refusal SQL that names the statement and carries nothing else', () => {
    expect(refusal('SET ROLE')).toBe("SELECT pg_temp.tay_refused('SET ROLE')");
    expect(refusal("SET'); DROP TABLE x; --")).toMatch(/^SELECT pg_temp\.tay_refused\('[A-Z_ ]*'\)$/);
  });
});
