import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { ErrorCode, type UserSession } from '@tay/contract';
import { sessionsRevokedEmail } from '../../auth/emails';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../mail/mailer';
import { recordSecurityEvent } from './security-events';

/** "Chrome on macOS": the browser and the system a user agent names, as a person would say them. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl\/|node|undici|okhttp|python/i.test(ua)
              ? 'A program'
              : 'A browser';
  const system = /iPhone|iPad|iPod/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  return system ? `${browser} on ${system}` : browser;
}

/** Whether an address is a private, loopback or link-local network's (where a place means nothing) or a public one. */
export function networkOf(ip: string | null): UserSession['network'] {
  if (!ip) return 'unknown';
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const version = isIP(address);
  if (version === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) ? 'private' : 'public';
  }
  if (version === 6) return /^(::1$|fe[89ab]|f[cd])/i.test(address) ? 'private' : 'public';
  return 'unknown';
}

/** The person's live sessions, the most recently active first; `current` marks the one asking. */
export async function listSessions(db: Kysely<DB>, userId: string, currentSessionId: string): Promise<UserSession[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'ip_address', 'user_agent', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    sessionId: row.id,
    device: describeDevice(row.user_agent),
    ipAddress: row.ip_address,
    network: networkOf(row.ip_address),
    signedInAt: row.created_at.toISOString(),
    lastActiveAt: row.updated_at.toISOString(),
    current: row.id === currentSessionId,
  }));
}

export interface SessionDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  publicUrl: string;
}

interface Who {
  userId: string;
  email: string;
  currentSessionId: string;
  ip: string | null;
}

/**
 * Signs one of the person's other devices out: its session row goes, so its next request is
 * refused (401) on every replica. Another person's session, or one that ended, is 404; this
 * device's is refused (sign out instead). In the security log and e-mailed.
 */
export async function revokeSession(deps: SessionDeps, who: Who, sessionId: string): Promise<{ revoked: number }> {
  if (sessionId === who.currentSessionId) throw new AppError(ErrorCode.Conflict, 'This is the device you are using: sign out instead.');
  const gone = await deps.db.deleteFrom('sessions').where('user_id', '=', who.userId).where('id', '=', sessionId).returning(['user_agent']).executeTakeFirst();
  if (!gone) throw AppError.notFound('Session');
  const device = describeDevice(gone.user_agent);
  await recordSecurityEvent(
    deps.db,
    deps.mailer,
    { userId: who.userId, action: 'session.revoked', details: { device }, ip: who.ip },
    sessionsRevokedEmail({ to: who.email, publicUrl: deps.publicUrl, count: 1, device }),
  );
  return { revoked: 1 };
}

/** Signs every other device of the person out; this one stays signed in. */
export async function revokeOtherSessions(deps: SessionDeps, who: Who): Promise<{ revoked: number }> {
  const gone = await deps.db.deleteFrom('sessions').where('user_id', '=', who.userId).where('id', '<>', who.currentSessionId).returning('id').execute();
  if (gone.length > 0) {
    await recordSecurityEvent(
      deps.db,
      deps.mailer,
      { userId: who.userId, action: 'session.others_revoked', details: { count: gone.length }, ip: who.ip },
      sessionsRevokedEmail({ to: who.email, publicUrl: deps.publicUrl, count: gone.length, device: null }),
    );
  }
  return { revoked: gone.length };
}
