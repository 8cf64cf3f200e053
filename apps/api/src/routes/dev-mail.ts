import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponse, OutboxQuery, OutboxResponse, formatDateTime } from '@tay/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { listOutbox } from '../mail/list-outbox';
import { AppError } from '../lib/app-error';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The development outbox: every e-mail the product sent, when no SMTP server is configured.
 * Registered only outside production (the config module decides).
 */
export const devMailRoutes: FastifyPluginAsyncZod<{ db: Kysely<DB> }> = async (app, { db }) => {
  app.get(
    '/api/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'E-mails and text messages in the development outbox, newest first (not available in production)',
        querystring: OutboxQuery,
        response: { 200: OutboxResponse, 400: ErrorResponse },
      },
    },
    async (request) => listOutbox({ db, to: request.query.to, limit: request.query.limit }),
  );

  app.get('/dev/mail', { schema: { hide: true, querystring: OutboxQuery } }, async (request, reply) => {
    const messages = await listOutbox({ db, to: request.query.to, limit: request.query.limit });
    const items = messages
      .map(
        (m) => `<article>
  <header><strong>${m.channel === 'sms' ? 'Text message' : escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${escapeHtml(formatDateTime(m.createdAt))}</span></header>
  <pre>${escapeHtml(m.text)}</pre>
  ${m.html ? `<a href="/dev/mail/${encodeURIComponent(m.id)}/html">View the HTML version</a>` : ''}
</article>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outbox · Tay (development)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
form{display:flex;gap:.5rem;margin:1rem 0}input{flex:1;padding:.4rem}
article{border:1px solid #dee2e6;border-radius:8px;padding:1rem;margin:1rem 0}
header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}header span{color:#495057}
pre{white-space:pre-wrap;font-size:.95rem}
</style></head><body>
<h1>Outbox</h1>
<p>E-mails the product sent while no SMTP server is configured (<code>SMTP_URL</code> unset), and text messages while no SMS provider is (<code>SMS_API_URL</code> unset), newest first. Not available in production.</p>
<form method="get" action="/dev/mail"><label for="to">Recipient</label><input id="to" name="to" type="text" value="${escapeHtml(request.query.to ?? '')}" placeholder="someone@example.com or +15551234567"><button type="submit">Filter</button></form>
${items || '<p>No messages yet.</p>'}
</body></html>`);
  });

  app.get('/dev/mail/:id/html', { schema: { hide: true, params: z.object({ id: z.string().max(64) }) } }, async (request, reply) => {
    const row = await db.selectFrom('mail_outbox').select('html_body').where('id', '=', request.params.id).executeTakeFirst();
    if (!row?.html_body) throw AppError.notFound('E-mail');
    reply
      .header('content-security-policy', "default-src 'none'; img-src data: https:; style-src 'unsafe-inline'")
      .type('text/html; charset=utf-8')
      .send(row.html_body);
  });
};
