import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { patientEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import {
  createPatient,
  deletePatient,
  exportPatients,
  getPatient,
  listPatients,
  listPatientViews,
  setPatientStatus,
  updatePatient,
} from '../domain/patients/patients';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';

/** Patients and their guarantors (`packages/contract/src/patients/patients.ts`, ADR 037): the healthcare template only. */
export const patientRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listPatients(db, { business, query })));
  mount(e.exportCsv, async ({ business, session, actor, query, reply }) =>
    sendCsv(
      reply,
      exportPatients(db, { business, user: { ...actor, name: session.user.name }, query }),
      `patients-${new Date().toISOString().slice(0, 10)}.csv`,
    ),
  );
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createPatient(db, { business, user: actor, body }))));
  mount(e.get, async ({ business, actor, params, query }) =>
    success(await getPatient(db, { business, user: actor, patientId: params.clientId, purpose: query.purpose })),
  );
  mount(e.views, async ({ business, params, query }) => success(await listPatientViews(db, { business, patientId: params.clientId, query })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updatePatient(db, { business, user: actor, patientId: params.clientId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deletePatient(db, { business, user: actor, patientId: params.clientId });
    return reply.status(204).send();
  });
  mount(e.activate, async ({ business, actor, params }) =>
    success(await setPatientStatus(db, { business, user: actor, patientId: params.clientId, activate: true })),
  );
  mount(e.deactivate, async ({ business, actor, params }) =>
    success(await setPatientStatus(db, { business, user: actor, patientId: params.clientId, activate: false })),
  );
};
