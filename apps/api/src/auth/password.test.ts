import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, temporaryPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('hashes with scrypt at OWASP parameters and verifies', async () => {
    const hash = await hashPassword('Tr1cky-Horse-Battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{86}$/);
    expect(await verifyPassword({ hash, password: 'Tr1cky-Horse-Battery' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'tr1cky-horse-battery' })).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password here')).not.toBe(await hashPassword('same password here'));
  });

  it('refuses malformed hashes instead of throwing', async () => {
    expect(await verifyPassword({ hash: 'abc:def', password: 'x' })).toBe(false);
    expect(await verifyPassword({ hash: 'scrypt$x$8$1$a$b', password: 'x' })).toBe(false);
  });
});

describe('password policy', () => {
  it('needs 8 characters and allows 64 and more', () => {
    expect(passwordProblem('Ab3$xyz')).toBe('Use at least 8 characters.');
    expect(passwordProblem('a-long-and-unusual-passphrase-'.repeat(3))).toBeNull();
    expect(passwordProblem('x'.repeat(129))).toBe('Use at most 128 characters.');
  });

  it.each(['password', 'Password1', '12345678', 'qwertyuiop', 'iloveyou'])('refuses the common password %s', (pw) => {
    expect(passwordProblem(pw)).toMatch(/commonly used/);
  });

  it('refuses the e-mail address and repeated characters', () => {
    expect(passwordProblem('ana@example.com', 'ana@example.com')).toMatch(/e-mail/);
    expect(passwordProblem('zzzzzzzzzz')).toMatch(/repeated/);
  });

  it('makes strong temporary passwords', () => {
    const pw = temporaryPassword();
    expect(pw).toHaveLength(16);
    expect(passwordProblem(pw)).toBeNull();
  });
});
