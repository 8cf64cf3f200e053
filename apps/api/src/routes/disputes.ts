import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { disputeEndpoints as e, MAX_EVIDENCE_FILES } from '@tay/contract';
import type { DB } from '../db/schema';
import {
  acceptDispute,
  disputeSummary,
  exportDisputes,
  getDispute,
  getEvidenceFile,
  listDisputes,
  submitEvidence,
  type DisputeDeps,
} from '../domain/disputes/disputes';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';

/** Five files of 5 MB as base64 (4/3 larger), and the text beside them. */
const EVIDENCE_BODY_LIMIT = Math.ceil((MAX_EVIDENCE_FILES * 5 * 1024 * 1024 * 4) / 3) + 512 * 1024;

/** A file name safe inside a Content-Disposition header. */
const headerSafe = (name: string) => name.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'evidence';

/** Disputes (`packages/contract/src/disputes/disputes.ts`, ADR 051). */
export const disputeRoutes: FastifyPluginAsync<{ db: Kysely<DB> } & Omit<DisputeDeps, 'db'>> = async (app, { db, processor, jobs }) => {
  const mount = endpointMounter(app, db);
  const deps: DisputeDeps = { db, processor, jobs };

  mount(e.list, async ({ business, query }) => success(await listDisputes(db, business.id, query)));
  mount(e.summary, async ({ business }) => success(await disputeSummary(db, business.id)));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportDisputes(db, business.id, business.timeZone, query), `disputes-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.get, async ({ business, params }) => success(await getDispute(db, business.id, params.disputeId)));
  mount(e.evidenceFile, async ({ business, params, reply }) => {
    const file = await getEvidenceFile(db, business.id, params.disputeId, params.fileId);
    return reply
      .header('content-type', file.content_type)
      .header('content-disposition', `attachment; filename="${headerSafe(file.file_name)}"`)
      .header('content-security-policy', "default-src 'none'")
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(file.content);
  });
  // Answering concedes or defends money: a repeated Idempotency-Key replays the first answer.
  mount(
    e.submitEvidence,
    async ({ business, actor, params, body }) => success(await submitEvidence(deps, { businessId: business.id, disputeId: params.disputeId, body, actor })),
    {
      bodyLimit: EVIDENCE_BODY_LIMIT,
      idempotent: { scope: (business) => `disputes:${business.id}`, request: ({ params, body }) => ({ disputeId: params.disputeId, body }) },
    },
  );
  mount(e.accept, async ({ business, actor, params }) => success(await acceptDispute(deps, { businessId: business.id, disputeId: params.disputeId, actor })), {
    idempotent: { scope: (business) => `disputes:${business.id}`, request: ({ params }) => ({ disputeId: params.disputeId, accept: true }) },
  });
};
