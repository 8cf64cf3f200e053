import { describe, expect, it } from 'vitest';
import { APP_ROLE, appLogin } from './app-role';

describe('appLogin: the app beside an owner-only DATABASE_URL', () => {
  it('logs in as the app role, with a password derived from the owner’s, never the owner’s itself', () => {
    const { url, password } = appLogin('postgres://owner:s%3Acret@db.example:5432/tay?sslmode=require');
    const parsed = new URL(url);
    expect(parsed.username).toBe('');
    expect(parsed.searchParams.get('user')).toBe(APP_ROLE);
    expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parsed.searchParams.get('password')).toBe(password);
    expect(url).not.toContain('s%3Acret');
    expect(parsed.searchParams.get('sslmode')).toBe('require');
    expect(`${parsed.host}${parsed.pathname}`).toBe('db.example:5432/tay');
    // Every process with the same owner's URL agrees on it; another owner's password gives another.
    expect(appLogin('postgres://owner:s%3Acret@db.example:5432/other').password).toBe(password);
    expect(appLogin('postgres://owner:other@db.example:5432/tay').password).not.toBe(password);
  });

  it('has no password when the owner’s URL has none (trust or peer authentication)', () => {
    const { url, password } = appLogin('postgres://postgres@127.0.0.1:5432/tay');
    expect(password).toBeNull();
    expect(new URL(url).searchParams.get('user')).toBe(APP_ROLE);
    expect(new URL(url).searchParams.has('password')).toBe(false);
    // A user and password given as parameters are replaced too.
    const fromParams = appLogin('postgresql:///tay?host=/var/run/postgresql&user=owner&password=pw');
    expect(new URL(fromParams.url).searchParams.get('user')).toBe(APP_ROLE);
    expect(new URL(fromParams.url).searchParams.get('password')).toBe(fromParams.password);
    expect(new URL(fromParams.url).searchParams.get('host')).toBe('/var/run/postgresql');
  });
});
