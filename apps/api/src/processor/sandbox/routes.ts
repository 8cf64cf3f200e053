import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ErrorCode, ErrorResponse } from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { CARD_FIELD_CSS, CARD_FIELD_HTML, CARD_FIELD_JS } from './card-field-assets';
import { checkBankAccount, checkCard, instrumentLabel } from './instruments';
import { createToken, SANDBOX_ELEMENTS_PATH } from './sandbox-processor';

export interface SandboxRoutesOptions {
  db: Kysely<DB>;
  publishableKey: string;
  secretKey: string;
}

const TokenBody = z
  .object({
    card: z
      .object({
        number: z.string().max(32),
        expMonth: z.number().int(),
        expYear: z.number().int(),
        cvc: z.string().max(8),
      })
      .optional(),
    bankAccount: z
      .object({
        routingNumber: z.string().max(16),
        accountNumber: z.string().max(32),
        accountHolderName: z.string().max(100),
      })
      .optional(),
  })
  .refine((b) => Boolean(b.card) !== Boolean(b.bankAccount), { message: 'Send either a card or a bank account.', path: ['card'] });

const Token = z.object({ id: z.string(), kind: z.enum(['card', 'bank_account']), label: z.string() });
const Charge = z.object({
  id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed', 'settled', 'returned']),
  amountCents: z.number().int(),
  failureCode: z.string().nullable(),
  instrument: z.string(),
  createdAt: z.string(),
});

/** The hosted field may be framed by our own pages only; it runs no inline code. */
const ELEMENTS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function requireKey(request: FastifyRequest, expected: string, kind: 'publishable' | 'secret'): void {
  const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
  if (!match || !sameKey(match[1]!, expected)) {
    throw new AppError(ErrorCode.Unauthorized, `Send the processor's ${kind} key as "Authorization: Bearer ${kind === 'publishable' ? 'pk' : 'sk'}_…".`);
  }
}

function asset(reply: FastifyReply, type: string, body: string) {
  return reply.header('content-security-policy', ELEMENTS_CSP).header('cache-control', 'no-cache').type(type).send(body);
}

/**
 * The built-in sandbox processor's own HTTP surface, standing in for an external processor
 * (ARCHITECTURE.md §5): tokens made from card or bank details with the publishable key, the hosted
 * card field, and charges readable with the secret key. Card numbers stop here: a token keeps
 * only the brand, the last four digits and the test behaviour.
 */
export const sandboxProcessorRoutes: FastifyPluginAsyncZod<SandboxRoutesOptions> = async (app, { db, publishableKey, secretKey }) => {
  app.post(
    '/sandbox-processor/v1/tokens',
    {
      schema: {
        tags: ['sandbox processor'],
        summary: 'Tokenize a card or bank account (Authorization: Bearer <publishable key>)',
        body: TokenBody,
        response: { 200: Token, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      requireKey(request, publishableKey, 'publishable');
      const { card, bankAccount } = request.body;
      const checked = card ? checkCard(card) : checkBankAccount(bankAccount!);
      if (!checked.ok) {
        const first = Object.values(checked.fields)[0]!;
        throw AppError.validation(first, checked.fields);
      }
      return createToken(db, checked.instrument);
    },
  );

  app.get(
    '/sandbox-processor/v1/charges/:id',
    {
      schema: {
        tags: ['sandbox processor'],
        summary: 'One charge (Authorization: Bearer <secret key>)',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: Charge, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      requireKey(request, secretKey, 'secret');
      const row = await db
        .selectFrom('sandbox_processor_charges as c')
        .innerJoin('sandbox_processor_tokens as t', 't.id', 'c.token_id')
        .select(['c.id', 'c.status', 'c.amount_cents', 'c.failure_code', 'c.created_at', 't.brand', 't.last4'])
        .where('c.id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw AppError.notFound('Charge');
      return {
        id: row.id,
        status: row.status,
        amountCents: row.amount_cents,
        failureCode: row.failure_code,
        instrument: instrumentLabel(row),
        createdAt: row.created_at.toISOString(),
      };
    },
  );

  // The card field's page, script and style are fixed files of the pay page: never rate limited (ADR 044).
  const file = { schema: { hide: true }, config: { rateLimit: false as const } };
  app.get(SANDBOX_ELEMENTS_PATH, file, async (_request, reply) => asset(reply, 'text/html; charset=utf-8', CARD_FIELD_HTML));
  app.get(`${SANDBOX_ELEMENTS_PATH}.js`, file, async (_request, reply) => asset(reply, 'text/javascript; charset=utf-8', CARD_FIELD_JS));
  app.get(`${SANDBOX_ELEMENTS_PATH}.css`, file, async (_request, reply) => asset(reply, 'text/css; charset=utf-8', CARD_FIELD_CSS));
};
