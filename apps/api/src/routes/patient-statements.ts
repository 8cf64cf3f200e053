import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { patientStatementEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import type { RequestContext } from '../domain/payment-requests/request-context';
import { createPatientStatement, listPatientStatements } from '../domain/patient-statements/patient-statement';
import { endpointMounter, success } from '../http/mount';

/**
 * The healthcare template's statements (`packages/contract/src/patients/statements.ts`, ADR 037):
 * a statement for one patient, billed to their guarantor, and the patient's statements. Creating
 * honours an `Idempotency-Key`, as the request create does (ADR 024).
 */
export const patientStatementRoutes: FastifyPluginAsync<{ ctx: RequestContext; db: Kysely<DB> }> = async (app, { ctx, db }) => {
  const mount = endpointMounter(app, db);

  mount(
    e.create,
    async ({ business, actor, params, body }) => success(await createPatientStatement(ctx, { business, user: actor, patientId: params.clientId, body })),
    {
      idempotent: {
        scope: (business) => `business:${business.id}:create-patient-statement`,
        request: ({ params, body }) => ({ clientId: params.clientId, ...body }),
      },
    },
  );

  mount(e.list, async ({ business, session, params, query }) =>
    success(await listPatientStatements(db, { business, user: session.user, patientId: params.clientId, query })),
  );
};
