import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { studentBillingEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { billableStudents, createBulkStudentBilling, createProgramBilling, previewProgramBilling } from '../domain/program-billing/program-billing';
import { endpointMounter, success } from '../http/mount';
import { withIdempotency } from '../lib/idempotency';
import type { AuthSession } from '../plugins/authenticate';

const acting = (session: AuthSession) => ({ userId: session.user.id, email: session.user.email, ip: session.user.ip });
const answer = (reply: FastifyReply, result: { status: number; body: unknown }) => reply.status(result.status).send(result.body);

/**
 * Program Billing and Request to Pay Multiple Students (`packages/contract/src/students/student-billing.ts`,
 * ADR 036): both make a batch of kind `student-billing` that waits in review, then is submitted
 * through the batch endpoints like any bulk batch.
 */
export const studentBillingRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.programBillingPreview, async ({ business, body }) => success(await previewProgramBilling(db, business, body)));

  mount(e.programBilling, async ({ business, session, body, request, reply }) =>
    answer(
      reply,
      await withIdempotency({
        db,
        scope: `business:${business.id}:program-billing`,
        key: request.headers['idempotency-key'] as string | undefined,
        request: body,
        run: async () => ({ status: 201, body: success(await createProgramBilling(db, business, acting(session), body)) }),
      }),
    ),
  );

  mount(e.billableStudents, async ({ business, query }) => success(await billableStudents(db, business, query)));

  mount(e.create, async ({ business, session, body, request, reply }) =>
    answer(
      reply,
      await withIdempotency({
        db,
        scope: `business:${business.id}:student-billing`,
        key: request.headers['idempotency-key'] as string | undefined,
        request: body,
        run: async () => ({ status: 201, body: success(await createBulkStudentBilling(db, business, acting(session), body)) }),
      }),
    ),
  );
};
