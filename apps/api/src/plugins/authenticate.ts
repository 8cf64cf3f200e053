import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/better-auth';
import type { DB } from '../db/schema';
import { shapedQuery, type Params } from '../db/shaped-query';
import { AppError } from '../lib/app-error';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  mustChangePassword: boolean;
  /** The client's address, for the audit log. */
  ip?: string;
}

export interface AuthSession {
  user: SessionUser;
  sessionId: string;
  token: string;
}

export interface SessionReader {
  read(request: FastifyRequest): Promise<AuthSession | null>;
  /** The request's session token if its signature is right; nothing is read from the database. */
  token(request: FastifyRequest): string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
    sessions: SessionReader;
  }
  interface FastifyRequest {
    /** The signed-in person, set by `requireUser`. */
    session: AuthSession | null;
    /** The well-signed bearer token, set by `requireBearer`. */
    bearerToken: string | null;
  }
}

const base64url = (text: string) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The session token carried by `Authorization: Bearer …`: better-auth's signed form
 * `<token>.<base64 HMAC-SHA256 of the token>` (URL-encoded as it leaves sign-in), or the bare
 * token. Null when the signature is wrong.
 */
export function tokenFromBearer(header: string | undefined, secret: string): string | null {
  if (!header || header.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  let value = header.slice(7).trim();
  if (!value) return null;
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  const dot = value.lastIndexOf('.');
  if (dot < 0) return /^[\w-]{16,128}$/.test(value) ? value : null;
  const token = value.slice(0, dot);
  const given = Buffer.from(base64url(value.slice(dot + 1)));
  const expected = Buffer.from(base64url(createHmac('sha256', secret).update(token).digest('base64')));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** How many well-signed bearer headers {@link bearerTokens} remembers. */
export const VERIFIED_BEARERS_KEPT = 10_000;

/**
 * {@link tokenFromBearer} that remembers the headers it found well signed, so a person's every
 * request does not compute the same HMAC again (5 % of the server's time on the history list).
 * Only well-signed headers are kept, so junk cannot fill it; the oldest goes first when full.
 * Whether the session still lives is never remembered: the database says so on every request.
 */
export function bearerTokens(secret: string, kept = VERIFIED_BEARERS_KEPT): { token(header: string | undefined): string | null; readonly size: number } {
  const verified = new Map<string, string>();
  return {
    token(header) {
      if (header === undefined) return null;
      const known = verified.get(header);
      if (known !== undefined) return known;
      const token = tokenFromBearer(header, secret);
      if (token !== null) {
        if (verified.size >= kept) verified.delete(verified.keys().next().value!);
        verified.set(header, token);
      }
      return token;
    },
    get size() {
      return verified.size;
    },
  };
}

/**
 * Reads the session behind a bearer token in one query (sessions ⋈ users), as better-auth
 * stores them. Every product request runs this, so it stays one indexed lookup; extending a
 * session is left to better-auth's get-session, which the web app calls every 50 minutes.
 */
const sessionByToken = shapedQuery((_: null, p: Params<{ token: string; now: Date }>, db) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as sessionId', 's.token', 'u.id', 'u.email', 'u.name', 'u.must_change_password'])
    .where('s.token', '=', p.token)
    .where('s.expires_at', '>', p.now),
);

export function createSessionReader(db: Kysely<DB>, secret: string): SessionReader {
  const bearers = bearerTokens(secret);
  return {
    token: (request) => bearers.token(request.headers.authorization),
    async read(request) {
      const token = bearers.token(request.headers.authorization);
      if (!token) return null;
      const row = (await db.executeQuery(sessionByToken(db, null, { token, now: new Date() }))).rows[0];
      if (!row) return null;
      return {
        user: { id: row.id, email: row.email, name: row.name, mustChangePassword: row.must_change_password, ip: request.ip },
        sessionId: row.sessionId,
        token: row.token,
      };
    },
  };
}

/** Decorates the app with better-auth and the session reader. */
export const authenticate = fp<{ auth: Auth; db: Kysely<DB>; secret: string }>(
  async function authenticate(app: FastifyInstance, { auth, db, secret }) {
    app.decorate('auth', auth);
    app.decorate('sessions', createSessionReader(db, secret));
    app.decorateRequest('session', null);
    app.decorateRequest('bearerToken', null);
  },
  { name: 'authenticate' },
);

/**
 * `requireUser` (preHandler): 401 without a live session; 403 while the person still has to
 * replace a temporary password (the new-password challenge holds them until they do).
 */
export async function requireUser(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const session = await this.sessions.read(request);
  if (!session) throw AppError.signInRequired();
  if (session.user.mustChangePassword) throw AppError.newPasswordRequired();
  request.session = session;
}

/**
 * `requireBearer` (preHandler), for hot reads that check the session in their own statement
 * (ADR 010): 401 without a well-signed bearer token; the token itself is checked by the query,
 * which answers 401 or 403 exactly as {@link requireUser} would.
 */
export async function requireBearer(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const token = this.sessions.token(request);
  if (!token) throw AppError.signInRequired();
  request.bearerToken = token;
}

/** The bearer token of a request that passed `requireBearer`. */
export function bearerOf(request: FastifyRequest): string {
  if (!request.bearerToken) throw AppError.signInRequired();
  return request.bearerToken;
}

/** The session of a request that passed `requireUser`. */
export function sessionOf(request: FastifyRequest): AuthSession {
  if (!request.session) throw AppError.signInRequired();
  return request.session;
}
