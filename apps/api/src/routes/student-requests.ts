import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { studentRequestEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import type { RequestContext } from '../domain/payment-requests/request-context';
import { exportStudentBalances, studentBalances } from '../domain/student-requests/student-balances';
import { createStudentRequest } from '../domain/student-requests/student-request';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';

/**
 * The student template's requests (`packages/contract/src/students/student-requests.ts`, ADR 036):
 * a request to pay for one student, and the students' balances. Creating honours an
 * `Idempotency-Key`, as the request create does (ADR 024).
 */
export const studentRequestRoutes: FastifyPluginAsync<{ ctx: RequestContext; db: Kysely<DB> }> = async (app, { ctx, db }) => {
  const mount = endpointMounter(app, db);

  mount(
    e.create,
    async ({ business, actor, params, body }) => success(await createStudentRequest(ctx, { business, user: actor, studentId: params.studentId, body })),
    {
      idempotent: {
        scope: (business) => `business:${business.id}:create-student-request`,
        request: ({ params, body }) => ({ studentId: params.studentId, ...body }),
      },
    },
  );

  mount(e.balances, async ({ business, query }) => success(await studentBalances(db, { business, query })));

  mount(e.balancesCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportStudentBalances(db, { business, query }), `student-balances-${new Date().toISOString().slice(0, 10)}.csv`),
  );
};
