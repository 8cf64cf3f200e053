import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { studentEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { createStudent, deleteStudent, exportStudents, getStudent, listStudents, setStudentStatus, updateStudent } from '../domain/students/students';
import { sendCsv } from '../http/csv-reply';
import { endpointMounter, success } from '../http/mount';

/** Students and their guardians (`packages/contract/src/students/students.ts`, ADR 036): the student template only. */
export const studentRoutes: FastifyPluginAsync<{ db: Kysely<DB> }> = async (app, { db }) => {
  const mount = endpointMounter(app, db);

  mount(e.list, async ({ business, query }) => success(await listStudents(db, { business, query })));
  mount(e.exportCsv, async ({ business, query, reply }) =>
    sendCsv(reply, exportStudents(db, { business, query }), `students-${new Date().toISOString().slice(0, 10)}.csv`),
  );
  mount(e.create, async ({ business, actor, body, reply }) => reply.status(201).send(success(await createStudent(db, { business, user: actor, body }))));
  mount(e.get, async ({ business, params }) => success(await getStudent(db, { business, studentId: params.studentId })));
  mount(e.update, async ({ business, actor, params, body }) => success(await updateStudent(db, { business, user: actor, studentId: params.studentId, body })));
  mount(e.remove, async ({ business, actor, params, reply }) => {
    await deleteStudent(db, { business, user: actor, studentId: params.studentId });
    return reply.status(204).send();
  });
  mount(e.activate, async ({ business, actor, params }) =>
    success(await setStudentStatus(db, { business, user: actor, studentId: params.studentId, activate: true })),
  );
  mount(e.deactivate, async ({ business, actor, params }) =>
    success(await setStudentStatus(db, { business, user: actor, studentId: params.studentId, activate: false })),
  );
};
