import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { programEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import {
  enrollCandidates,
  enrollStudent,
  enrollStudents,
  exportEnrollments,
  listEnrollments,
  studentEnrollments,
  withdrawEnrollment,
} from '../domain/programs/enrollments';
import { createProgram, deleteProgram, exportPrograms, getProgram, listPrograms, setProgramStatus, updateProgram } from '../domain/programs/programs';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';
import type { AuthSession } from '../plugins/authenticate';

const acting = (session: AuthSession) => ({ userId: session.user.id, email: session.user.email, ip: session.user.ip });
const today = () => new Date().toISOString().slice(0, 10);

/** Programs and enrollments of the student template (`packages/contract/src/students/programs.ts`, ADR 036). */
export const programRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listPrograms(db, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) => sendCsv(reply, exportPrograms(db, { business, query }), `programs-${today()}.csv`));
  mount(e.create, async ({ business, session, body, reply }) =>
    reply.status(201).send(success(await createProgram(db, { business, user: acting(session), body }))),
  );
  mount(e.get, async ({ business, params }) => success(await getProgram(db, { business, programId: params.programId })));
  mount(e.update, async ({ business, session, params, body }) =>
    success(await updateProgram(db, { business, user: acting(session), programId: params.programId, body })),
  );
  mount(e.remove, async ({ business, session, params, reply }) => {
    await deleteProgram(db, { business, user: acting(session), programId: params.programId });
    return reply.status(204).send();
  });
  mount(e.activate, async ({ business, session, params }) =>
    success(await setProgramStatus(db, { business, user: acting(session), programId: params.programId, activate: true })),
  );
  mount(e.deactivate, async ({ business, session, params }) =>
    success(await setProgramStatus(db, { business, user: acting(session), programId: params.programId, activate: false })),
  );

  mount(e.enrollments, async ({ business, params, query }) => success(await listEnrollments(db, { business, programId: params.programId, query })));
  mount(e.exportEnrollments, async ({ business, params, query, reply }) =>
    sendCsv(reply, exportEnrollments(db, { business, programId: params.programId, query }), `program-students-${today()}.csv`),
  );
  mount(e.candidates, async ({ business, params, query }) => success(await enrollCandidates(db, { business, programId: params.programId, query })));
  mount(e.enroll, async ({ business, session, params, body, reply }) =>
    reply.status(201).send(success(await enrollStudents(db, { business, user: acting(session), programId: params.programId, body }))),
  );
  mount(e.withdraw, async ({ business, session, params, body }) =>
    success(
      await withdrawEnrollment(db, { business, user: acting(session), programId: params.programId, enrollmentId: params.enrollmentId, endDate: body.endDate }),
    ),
  );
  mount(e.studentEnrollments, async ({ business, params }) => success(await studentEnrollments(db, { business, studentId: params.studentId })));
  mount(e.enrollStudent, async ({ business, session, params, body, reply }) =>
    reply.status(201).send(success(await enrollStudent(db, { business, user: acting(session), studentId: params.studentId, body }))),
  );
};
