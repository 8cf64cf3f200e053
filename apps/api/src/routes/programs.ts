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

const today = () => new Date().toISOString().slice(0, 10);

/** Programs and enrollments of the student template (`packages/contract/src/students/programs.ts`, ADR 036). */
export const programRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listPrograms(db, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) => sendCsv(reply, exportPrograms(db, { business, query }), `programs-${today()}.csv`));
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createProgram(db, { business, user: actor, body }))));
  mount(e.get, async ({ business, params }) => success(await getProgram(db, { business, programId: params.programId })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updateProgram(db, { business, user: actor, programId: params.programId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deleteProgram(db, { business, user: actor, programId: params.programId });
    return reply.status(204).send();
  });
  mount(e.activate, async ({ business, actor, params }) =>
    success(await setProgramStatus(db, { business, user: actor, programId: params.programId, activate: true })),
  );
  mount(e.deactivate, async ({ business, actor, params }) =>
    success(await setProgramStatus(db, { business, user: actor, programId: params.programId, activate: false })),
  );

  mount(e.enrollments, async ({ business, params, query }) => success(await listEnrollments(db, { business, programId: params.programId, query })));
  mount(e.exportEnrollments, async ({ business, params, query, reply }) =>
    sendCsv(reply, exportEnrollments(db, { business, programId: params.programId, query }), `program-students-${today()}.csv`),
  );
  mount(e.candidates, async ({ business, params, query }) => success(await enrollCandidates(db, { business, programId: params.programId, query })));
  mount(e.enroll, async ({ business, actor, params, body, reply }) =>
    reply.status(201).send(success(await enrollStudents(db, { business, user: actor, programId: params.programId, body }))),
  );
  mount(e.withdraw, async ({ business, actor, params, body }) =>
    success(await withdrawEnrollment(db, { business, user: actor, programId: params.programId, enrollmentId: params.enrollmentId, endDate: body.endDate })),
  );
  mount(e.studentEnrollments, async ({ business, params }) => success(await studentEnrollments(db, { business, studentId: params.studentId })));
  mount(e.enrollStudent, async ({ business, actor, params, body, reply }) =>
    reply.status(201).send(success(await enrollStudent(db, { business, user: actor, studentId: params.studentId, body }))),
  );
};
