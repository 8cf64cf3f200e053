import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { studentBillingEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { billableStudents, createBulkStudentBilling, createProgramBilling, previewProgramBilling } from '../domain/program-billing/program-billing';
import { endpointMounter, success } from '../http/mount';

/**
 * Program Billing and Request to Pay Multiple Students (`packages/contract/src/students/student-billing.ts`,
 * ADR 036): both make a batch of kind `student-billing` that waits in review, then is submitted
 * through the batch endpoints like any bulk batch.
 */
export const studentBillingRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.programBillingPreview, async ({ business, body }) => success(await previewProgramBilling(db, business, body)));

  mount(e.programBilling, async ({ business, actor, body }) => success(await createProgramBilling(db, business, actor, body)), {
    idempotent: { scope: (business) => `business:${business.id}:program-billing` },
  });

  mount(e.billableStudents, async ({ business, query }) => success(await billableStudents(db, business, query)));

  mount(e.create, async ({ business, actor, body }) => success(await createBulkStudentBilling(db, business, actor, body)), {
    idempotent: { scope: (business) => `business:${business.id}:student-billing` },
  });
};
