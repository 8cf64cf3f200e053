import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { batchEndpoints as e, ErrorCode, MAX_BATCH_FILE_BYTES } from '@tay/contract';
import type { DB } from '../db/schema';
import { errorRowsCsv, listBatches, listRows } from '../domain/batches/batch-rows';
import { batchOf } from '../domain/batches/batch-record';
import { discardBatch, dropRow, dropRows, fixRow, mapBatch } from '../domain/batches/check-batch';
import { payCheckedIn } from '../domain/batches/event-payout-batch';
import { submitBatch, unscheduleBatch } from '../domain/batches/submit-batch';
import { TOO_LARGE, uploadBatch } from '../domain/batches/upload-batch';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, ruleRefusal, success, type ScopedBusiness } from '../http/mount';
import type { Jobs } from '../jobs/queue';
import { AppError } from '../lib/app-error';
import { withIdempotency } from '../lib/idempotency';
import type { AuthSession } from '../plugins/authenticate';

export interface BatchRoutesOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
}

const acting = (session: AuthSession) => ({ userId: session.user.id, email: session.user.email, ip: session.user.ip });
const CSV_ONLY = 'Send the file as CSV (Content-Type: text/csv), the way a spreadsheet exports it.';
const answer = (reply: FastifyReply, result: { status: number; body: unknown; replayed?: boolean }) => {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.status).send(result.body);
};

/** The content types a browser or a script sends a .csv file with (Windows says Excel). */
const CSV_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'text/comma-separated-values', 'application/octet-stream'];

/**
 * Bulk batches (`packages/contract/src/batches/endpoints.ts`, ADR 032). The upload's body is the
 * file itself, read here as bytes (its encoding is found from them); the other bodies are JSON.
 */
export const batchRoutes: FastifyPluginAsync<BatchRoutesOptions> = async (app, { db, jobs }) => {
  const mount = endpointMounter(app, db);

  /** A payouts batch is a payouts endpoint: refused (403) while the business's payouts are off (ADR 035); a template's kinds only for its businesses (ADR 036, 037). */
  const payoutsRule = (business: ScopedBusiness, kind: string | undefined) => {
    const refusal =
      kind === 'payouts'
        ? ruleRefusal('payoutsEnabled', business)
        : kind === 'students' || kind === 'student-billing'
          ? ruleRefusal('studentTemplate', business)
          : kind === 'patients' || kind === 'patient-billing'
            ? ruleRefusal('healthCareTemplate', business)
            : null;
    if (refusal) throw refusal;
  };
  const guard = async (business: ScopedBusiness, batchId: string) => {
    const found = await db.selectFrom('batches').select('kind').where('business_id', '=', business.id).where('id', '=', batchId).executeTakeFirst();
    payoutsRule(business, found?.kind);
  };
  app.addHook('preHandler', async (request) => {
    const business = request.business;
    if (!business) return;
    const batchId = (request.params as { batchId?: unknown } | undefined)?.batchId;
    if (typeof batchId === 'string') await guard(business, batchId);
    else payoutsRule(business, (request.query as { kind?: string } | undefined)?.kind);
  });
  app.addContentTypeParser(CSV_TYPES, { parseAs: 'buffer', bodyLimit: MAX_BATCH_FILE_BYTES }, (_request, body, done) => done(null, body));

  mount(e.list, async ({ business, query }) => success(await listBatches(db, business.id, query)));

  mount(
    e.upload,
    async ({ business, session, query, request }) => {
      // JSON is parsed before the route sees it: the file must come as it is, as CSV.
      if (/^application\/json/i.test(request.headers['content-type'] ?? '')) {
        throw new AppError(ErrorCode.BadRequest, CSV_ONLY, { file: 'Send the file itself, as text/csv.' }, 415);
      }
      if (!Buffer.isBuffer(request.body)) {
        throw AppError.validation('Send the file as the request body with Content-Type: text/csv.', { file: 'Choose a CSV file.' });
      }
      return success(await uploadBatch({ db, business, user: acting(session), kind: query.kind, fileName: query.fileName, bytes: request.body }));
    },
    {
      bodyLimit: MAX_BATCH_FILE_BYTES,
      config: {
        // Read by the error handler (apps/api/src/plugins/error-handler.ts).
        ...({
          bodyMessages: {
            tooLarge: TOO_LARGE,
            mediaType: CSV_ONLY,
          },
        } as object),
      },
    },
  );

  mount(e.get, async ({ business, params }) => success(await batchOf(db, business.id, params.batchId)));

  mount(e.map, async ({ business, session, params, body }) =>
    success(await mapBatch({ db, jobs, business, batchId: params.batchId, mapping: body.mapping, actor: acting(session) })),
  );

  mount(e.discard, async ({ business, session, params, reply }) => {
    await discardBatch({ db, business, batchId: params.batchId, actor: acting(session) });
    return reply.status(204).send();
  });

  mount(e.rows, async ({ business, params, query }) => success(await listRows(db, business.id, params.batchId, query)));

  mount(e.errorsCsv, async ({ business, session, params, reply }) => {
    const batch = await batchOf(db, business.id, params.batchId);
    const name =
      batch.fileName
        .replace(/\.csv$/i, '')
        .replace(/[^\w.-]+/g, '-')
        .replace(/-{2,}/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 80) || 'batch';
    return sendCsv(reply, errorRowsCsv(db, business.id, params.batchId, { ...acting(session), name: session.user.name }), `${name}-errors.csv`);
  });

  mount(e.fixRow, async ({ business, session, params, body }) =>
    success(await fixRow({ db, business, batchId: params.batchId, line: params.row, fields: body.fields, actor: acting(session) })),
  );

  mount(e.dropRows, async ({ business, session, params, body }) =>
    success(await dropRows({ db, business, batchId: params.batchId, which: 'status' in body ? 'invalid' : { lines: body.rows }, actor: acting(session) })),
  );
  mount(e.dropRow, async ({ business, session, params }) =>
    success(await dropRow({ db, business, batchId: params.batchId, line: params.row, actor: acting(session) })),
  );

  mount(e.unschedule, async ({ business, session, params }) =>
    success(await unscheduleBatch({ db, business, batchId: params.batchId, user: acting(session) })),
  );

  mount(e.payCheckIns, async ({ business, session, params, reply }) =>
    reply.status(202).send(success(await payCheckedIn({ db, jobs, business, eventId: params.eventId, user: acting(session) }))),
  );

  mount(e.submit, async ({ business, session, params, body, request, reply }) =>
    answer(
      reply,
      await withIdempotency({
        db,
        scope: `business:${business.id}:submit-batch`,
        key: request.headers['idempotency-key'] as string | undefined,
        request: { batchId: params.batchId, ...body },
        run: async () => ({ status: 202, body: success(await submitBatch({ db, jobs, business, batchId: params.batchId, user: acting(session), body })) }),
      }),
    ),
  );
};
