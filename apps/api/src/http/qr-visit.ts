import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { QR_VISIT_SECONDS } from '../domain/qr-codes/qr-payments';

/** The cookie that makes one visit of a code's page count as one scan; scoped to that code's page and API path. */
const VISIT_COOKIE = 'tay_qr_visit';

/**
 * A visit of a code's page (its first screen or its API read): new when the browser brought no
 * visit cookie for this path; the device, without keeping who it is — its address and browser,
 * hashed; and the cookies that mark the visit, for the page's path and the API's.
 */
export function qrVisit(request: FastifyRequest, code: string, secureCookies: boolean): { newVisit: boolean; device: string; cookies: string[] } {
  const newVisit = !(request.headers.cookie ?? '').split(';').some((part) => part.trim().startsWith(`${VISIT_COOKIE}=`));
  const device = createHash('sha256')
    .update(`${request.ip}|${request.headers['user-agent'] ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  const cookie = (path: string) => `${VISIT_COOKIE}=1; Max-Age=${QR_VISIT_SECONDS}; Path=${path}; HttpOnly; SameSite=Lax${secureCookies ? '; Secure' : ''}`;
  const paths = [`/api/public/qr/${encodeURIComponent(code)}`, `/pay/qr/${encodeURIComponent(code)}`];
  return { newVisit, device, cookies: newVisit ? paths.map(cookie) : [] };
}
