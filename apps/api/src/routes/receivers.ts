import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { ErrorCode, receiverEndpoints as e, receiverLinkEndpoints as p } from '@tay/contract';
import type { DB } from '../db/schema';
import { bankAccountNumberBox } from '../domain/businesses/add-bank-account';
import { getReceiverLinkPage, lookUpRouting, RECEIVER_LINK_ATTEMPTS, setReceiverAccount } from '../domain/receivers/receiver-link';
import { hashLinkToken } from '../domain/receivers/receiver-record';
import {
  createReceiver,
  deleteReceiver,
  exportReceivers,
  getReceiver,
  listReceivers,
  resendReceiverLink,
  reviewReceiver,
  setReceiverStatus,
  updateReceiver,
} from '../domain/receivers/receivers';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import { AppError } from '../lib/app-error';
import { consumeRateLimit, tryAgainIn } from '../lib/rate-limiter';
import type { Mailer } from '../mail/mailer';

/** Receivers (`packages/contract/src/payouts/receivers.ts`, ADR 035): the business's side. */
export const receiverRoutes: FastifyPluginAsync<{ db: Kysely<DB>; mailer: Pick<Mailer, 'send'>; publicUrl: string }> = async (
  app,
  { db, mailer, publicUrl },
) => {
  const mount = endpointMounter(app, db);
  const ctx = { db, mailer, publicUrl };

  mount(e.list, async ({ business, query }) => success(await listReceivers(ctx, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportReceivers(ctx, { business, query }), `receivers-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createReceiver(ctx, { business, user: actor, body }))));
  mount(e.get, async ({ business, params }) => success(await getReceiver(ctx, { business, receiverId: params.receiverId })));
  mount(e.update, async ({ business, actor, params, body }) =>
    success(await updateReceiver(ctx, { business, user: actor, receiverId: params.receiverId, body })),
  );
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deleteReceiver(ctx, { business, user: actor, receiverId: params.receiverId });
    return reply.status(204).send();
  });
  mount(e.enable, async ({ business, actor, params }) =>
    success(await setReceiverStatus(ctx, { business, user: actor, receiverId: params.receiverId, enable: true })),
  );
  mount(e.disable, async ({ business, actor, params }) =>
    success(await setReceiverStatus(ctx, { business, user: actor, receiverId: params.receiverId, enable: false })),
  );
  mount(e.resendLink, async ({ business, actor, params }) => success(await resendReceiverLink(ctx, { business, user: actor, receiverId: params.receiverId })));
  mount(e.review, async ({ business, actor, params }) => success(await reviewReceiver(ctx, { business, user: actor, receiverId: params.receiverId })));
};

/** The receiver's side (no sign-in): the secure link, `/api/public/receivers/bank-account/:token…`. */
export const publicReceiverRoutes: FastifyPluginAsync<{ db: Kysely<DB>; authSecrets: string[] }> = async (app, { db, authSecrets }) => {
  const mount = endpointMounter(app, db);
  const secretBox = bankAccountNumberBox(authSecrets);

  /** A few dozen requests per device and link: a link is a secret, not a form to try numbers on. */
  async function limit(token: string, ip: string, reply: FastifyReply) {
    const attempt = await consumeRateLimit(db, `receiver-link:${hashLinkToken(token).slice(0, 32)}:${ip}`, RECEIVER_LINK_ATTEMPTS);
    if (!attempt.allowed) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      throw new AppError(ErrorCode.RateLimited, `Too many tries from your device. ${tryAgainIn(attempt.retryAfterSeconds)}.`);
    }
    reply.header('cache-control', 'no-store');
  }

  mount(p.get, async ({ params, request, reply }) => {
    await limit(params.token, request.ip, reply);
    return success(await getReceiverLinkPage(db, params.token));
  });
  mount(p.routing, async ({ params, request, reply }) => {
    await limit(params.token, request.ip, reply);
    await getReceiverLinkPage(db, params.token); // only a live link looks numbers up
    return success(lookUpRouting(params.routingNumber));
  });
  mount(p.setAccount, async ({ params, body, request, reply }) => {
    await limit(params.token, request.ip, reply);
    return success(await setReceiverAccount(db, { token: params.token, body, secretBox, ip: request.ip }));
  });
};
