import type { FastifyPluginAsync } from 'fastify';
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
import { endpointMounter, success } from '../http/mount';
import type { Jobs } from '../jobs/queue';
import { AppError } from '../lib/app-error';

export interface BatchRoutesOptions {
  db: Kysely<DB>;
  jobs: Pick<Jobs, 'send'>;
}

const CSV_ONLY = 'Send the file as CSV (Content-Type: text/csv), the way a spreadsheet exports it.';

/** The content types a browser or a script sends a .csv file with (Windows says Excel). */
const CSV_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'text/comma-separated-values', 'application/octet-stream'];

/**
 * Bulk batches (`packages/contract/src/batches/endpoints.ts`, ADR 032). The upload's body is the
 * file itself, read here as bytes (its encoding is found from them); the other bodies are JSON.
 * A batch's kind belongs to its area (payouts, a template): the table's subject rules, which the
 * mount checks.
 */
export const batchRoutes: FastifyPluginAsync<BatchRoutesOptions> = async (app, { db, jobs }) => {
  const mount = endpointMounter(app, db);

  app.addContentTypeParser(CSV_TYPES, { parseAs: 'buffer', bodyLimit: MAX_BATCH_FILE_BYTES }, (_request, body, done) => done(null, body));

  mount(e.list, async ({ business, query }) => success(await listBatches(db, business.id, query)));

  mount(
    e.upload,
    async ({ business, actor, query, request }) => {
      // JSON is parsed before the route sees it: the file must come as it is, as CSV.
      if (/^application\/json/i.test(request.headers['content-type'] ?? '')) {
        throw new AppError(ErrorCode.BadRequest, CSV_ONLY, { file: 'Send the file itself, as text/csv.' }, 415);
      }
      if (!Buffer.isBuffer(request.body)) {
        throw AppError.validation('Send the file as the request body with Content-Type: text/csv.', { file: 'Choose a CSV file.' });
      }
      return success(await uploadBatch({ db, business, user: actor, kind: query.kind, fileName: query.fileName, bytes: request.body }));
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

  mount(e.map, async ({ business, actor, params, body }) =>
    success(await mapBatch({ db, jobs, business, batchId: params.batchId, mapping: body.mapping, actor })),
  );

  mount(e.discard, async ({ business, actor, params, reply }) => {
    await discardBatch({ db, business, batchId: params.batchId, actor });
    return reply.status(204).send();
  });

  mount(e.rows, async ({ business, params, query }) => success(await listRows(db, business.id, params.batchId, query)));

  mount(e.errorsCsv, async ({ business, session, actor, params, reply }) => {
    const batch = await batchOf(db, business.id, params.batchId);
    const name =
      batch.fileName
        .replace(/\.csv$/i, '')
        .replace(/[^\w.-]+/g, '-')
        .replace(/-{2,}/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 80) || 'batch';
    return sendCsv(reply, errorRowsCsv(db, business.id, params.batchId, { ...actor, name: session.user.name }), `${name}-errors.csv`);
  });

  mount(e.fixRow, async ({ business, actor, params, body }) =>
    success(await fixRow({ db, business, batchId: params.batchId, line: params.row, fields: body.fields, actor })),
  );

  mount(e.dropRows, async ({ business, actor, params, body }) =>
    success(await dropRows({ db, business, batchId: params.batchId, which: 'status' in body ? 'invalid' : { lines: body.rows }, actor })),
  );
  mount(e.dropRow, async ({ business, actor, params }) => success(await dropRow({ db, business, batchId: params.batchId, line: params.row, actor })));

  mount(e.unschedule, async ({ business, actor, params }) => success(await unscheduleBatch({ db, business, batchId: params.batchId, user: actor })));

  mount(e.payCheckIns, async ({ business, actor, params, reply }) =>
    reply.status(202).send(success(await payCheckedIn({ db, jobs, business, eventId: params.eventId, user: actor }))),
  );

  mount(e.submit, async ({ business, actor, params, body }) => success(await submitBatch({ db, jobs, business, batchId: params.batchId, user: actor, body })), {
    idempotent: { scope: (business) => `business:${business.id}:submit-batch`, request: ({ params, body }) => ({ batchId: params.batchId, ...body }) },
  });
};
