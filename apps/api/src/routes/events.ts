import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { checkInEndpoints as p, ErrorCode, eventEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { checkIn, CHECK_IN_ATTEMPTS, findByCheckInToken, getCheckInPage } from '../domain/events/check-in';
import { eventFileName, eventImage } from '../domain/events/event-image';
import { selectEvent } from '../domain/events/event-record';
import {
  createEvent,
  deleteEvent,
  exportCheckIns,
  exportEvents,
  getEvent,
  listCheckIns,
  listEvents,
  setEventStatus,
  updateEvent,
} from '../domain/events/events';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import { AppError } from '../lib/app-error';
import { consumeRateLimit, tryAgainIn } from '../lib/rate-limiter';
import type { Mailer } from '../mail/mailer';

/** Events (`packages/contract/src/payouts/events.ts`, ADR 035): the business's side. */
export const eventRoutes: FastifyPluginAsync<{ db: Kysely<DB>; publicUrl: string }> = async (app, { db, publicUrl }) => {
  const mount = endpointMounter(app, db);
  const ctx = { db, publicUrl };
  const today = () => new Date().toISOString().slice(0, 10);

  mount(e.list, async ({ business, query }) => success(await listEvents(ctx, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) => sendCsv(reply, exportEvents(ctx, { business, query }), `events-${today()}.csv`));
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createEvent(ctx, { business, user: actor, body }))));
  mount(e.get, async ({ business, params }) => success(await getEvent(ctx, { business, eventId: params.eventId })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updateEvent(ctx, { business, user: actor, eventId: params.eventId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deleteEvent(ctx, { business, user: actor, eventId: params.eventId });
    return reply.status(204).send();
  });
  mount(e.enable, async ({ business, actor, params }) => success(await setEventStatus(ctx, { business, user: actor, eventId: params.eventId, enable: true })));
  mount(e.disable, async ({ business, actor, params }) =>
    success(await setEventStatus(ctx, { business, user: actor, eventId: params.eventId, enable: false })),
  );
  mount(e.image, async ({ business, params, query, reply }) => {
    const row = await selectEvent(db, business.id, params.eventId);
    const image = await eventImage(db, publicUrl, row, query.format, query.size);
    return reply
      .header('content-type', image.contentType)
      .header('content-disposition', `${query.disposition}; filename="${eventFileName(row.name, image.extension)}"`)
      .header('cache-control', 'private, no-store')
      .send(image.body);
  });
  mount(e.checkIns, async ({ business, params, query }) => success(await listCheckIns(ctx, { business, eventId: params.eventId, query })));
  mount(e.exportCheckIns, async ({ business, params, query, reply }) => {
    await selectEvent(db, business.id, params.eventId); // 404 as JSON, before the file starts
    return sendCsv(reply, exportCheckIns(ctx, { business, eventId: params.eventId, query }), `check-ins-${today()}.csv`);
  });
};

/** The receiver's side (no sign-in): `/api/public/checkin/:token`, what an event's code opens. */
export const checkInRoutes: FastifyPluginAsync<{ db: Kysely<DB>; mailer: Pick<Mailer, 'send'>; publicUrl: string }> = async (
  app,
  { db, mailer, publicUrl },
) => {
  const mount = endpointMounter(app, db);

  mount(p.get, async ({ params, reply }) => {
    reply.header('cache-control', 'no-store');
    return success(await getCheckInPage(db, params.token));
  });

  mount(p.checkIn, async ({ params, body, request, reply }) => {
    const { event } = await findByCheckInToken(db, params.token);
    const attempt = await consumeRateLimit(db, `check-in:${event.id}:${request.ip}`, CHECK_IN_ATTEMPTS);
    if (!attempt.allowed) {
      reply.header('retry-after', String(attempt.retryAfterSeconds));
      throw new AppError(ErrorCode.RateLimited, `Too many check-ins from your device. ${tryAgainIn(attempt.retryAfterSeconds)}, or ask the organiser.`);
    }
    reply.header('cache-control', 'no-store');
    return success(await checkIn(db, { token: params.token, body, mailer, publicUrl, ip: request.ip }));
  });
};
