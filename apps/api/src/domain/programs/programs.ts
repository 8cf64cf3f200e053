import { sql, type Kysely } from 'kysely';
import {
  csvRow,
  ErrorCode,
  formatDateTime,
  formatDay,
  formatMoney,
  PROGRAM_FREQUENCY_LABELS,
  PROGRAM_STATUS_LABELS,
  type Program,
  type ProgramListQuery,
  type ProgramValues,
} from '@tay/contract';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';
import { recordEvent } from '../businesses/audit';
import type { ScopedBusiness } from '../businesses/business-scope';
import type { ActingUser } from '../payment-requests/request-context';
import { assertUniqueProgramName, auditActor, loadProgram, programDuplicateFromViolation, selectProgram, toProgram } from './program-record';
import { plainPage } from '../../db/plain-list';
import { anyRow } from '../../db/any-row';
import { updateOwned } from '../../db/owned-rows';

type ListQuery = ReturnType<typeof ProgramListQuery.parse>;

function columnsOf(values: ProgramValues) {
  return {
    name: values.name,
    description: values.description,
    fee_cents: values.feeCents,
    frequency: values.frequency,
    start_date: values.startDate,
    end_date: values.endDate ?? null,
    capacity: values.capacity ?? null,
    prorate: values.prorate,
  };
}

/** POST …/programs: a new, active program with nobody enrolled. */
export async function createProgram(
  db: Kysely<DB>,
  { business, user, body }: { business: ScopedBusiness; user: ActingUser; body: ProgramValues },
): Promise<Program> {
  try {
    return await db.transaction().execute(async (trx) => {
      await assertUniqueProgramName(trx, business.id, body.name);
      const id = newId('prg');
      await trx
        .insertInto('programs')
        .values({ business_id: business.id, id, ...columnsOf(body), created_by: user.userId })
        .execute();
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(user),
        action: 'program.created',
        details: { programId: id, name: body.name, feeCents: body.feeCents, frequency: body.frequency },
      });
      return loadProgram(trx, business.id, id);
    });
  } catch (error) {
    throw programDuplicateFromViolation(error) ?? error;
  }
}

/**
 * PATCH …/programs/:programId. A new fee applies to what is billed next: requests already made
 * keep their amount. The capacity cannot go below the students enrolled now.
 */
export async function updateProgram(
  db: Kysely<DB>,
  { business, user, programId, body }: { business: ScopedBusiness; user: ActingUser; programId: string; body: ProgramValues },
): Promise<Program> {
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await selectProgram(trx, business.id, programId, { lock: true });
      await assertUniqueProgramName(trx, business.id, body.name, programId);
      const enrolled = Number(current.enrolled_count);
      if (body.capacity !== null && body.capacity !== undefined && body.capacity < enrolled) {
        throw new AppError(ErrorCode.ValidationFailed, `${current.name} has ${enrolled} students enrolled, so its capacity cannot be below ${enrolled}.`, {
          capacity: `${enrolled} students are enrolled: the capacity must be at least ${enrolled}, or empty for no limit.`,
        });
      }
      if (body.endDate) {
        const latest = await trx
          .selectFrom('enrollments')
          .select((eb) => eb.fn.max('start_date').as('start'))
          .where('business_id', '=', business.id)
          .where('program_id', '=', programId)
          .where('status', '=', 'active')
          .executeTakeFirst();
        if (latest?.start && body.endDate < latest.start) {
          throw new AppError(ErrorCode.ValidationFailed, `A student of ${current.name} starts on ${formatDay(latest.start)}, after that end date.`, {
            endDate: `The end date must be on or after ${formatDay(latest.start)}, when the latest enrollment starts.`,
          });
        }
      }
      const next = columnsOf(body);
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => String(current[k] ?? '') !== String(next[k] ?? ''));
      await updateOwned(trx, 'programs', business.id, programId, { ...next });
      await recordEvent(trx, {
        businessId: business.id,
        actor: auditActor(user),
        action: 'program.updated',
        details: {
          programId,
          changed,
          ...(changed.includes('fee_cents') ? { feeCents: { from: Number(current.fee_cents), to: body.feeCents } } : {}),
        },
      });
      return loadProgram(trx, business.id, programId);
    });
  } catch (error) {
    throw programDuplicateFromViolation(error) ?? error;
  }
}

/** Activate / Deactivate. A Disabled program takes no enrollment and is not billed; its students stay enrolled. */
export async function setProgramStatus(
  db: Kysely<DB>,
  { business, user, programId, activate }: { business: ScopedBusiness; user: ActingUser; programId: string; activate: boolean },
): Promise<Program> {
  return db.transaction().execute(async (trx) => {
    const current = await selectProgram(trx, business.id, programId, { lock: true });
    const status = activate ? 'active' : 'Disabled';
    if (current.status === status) throw new AppError(ErrorCode.Conflict, `${current.name} is already ${activate ? 'active' : 'disabled'}.`);
    await updateOwned(trx, 'programs', business.id, programId, { status });
    await recordEvent(trx, {
      businessId: business.id,
      actor: auditActor(user),
      action: activate ? 'program.activated' : 'program.deactivated',
      details: { programId, name: current.name },
    });
    return loadProgram(trx, business.id, programId);
  });
}

/** Deletes a program nothing names: no enrollment (even withdrawn), no billing cycle, no request. */
export async function deleteProgram(
  db: Kysely<DB>,
  { business, user, programId }: { business: ScopedBusiness; user: ActingUser; programId: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await selectProgram(trx, business.id, programId, { lock: true });
    if (await anyRow(trx, 'enrollments', business.id, { program_id: programId })) {
      throw new AppError(ErrorCode.Conflict, `${current.name} has enrollments, so it stays on record with them. Deactivate it instead.`);
    }
    const request = await trx
      .selectFrom('payment_requests')
      .select('id')
      .where('business_id', '=', business.id)
      .where('source_kind', '=', 'student')
      .where(sql<string>`source #>> '{list,program,programId}'`, '=', programId)
      .limit(1)
      .executeTakeFirst();
    if (request) {
      throw new AppError(ErrorCode.Conflict, `Requests to pay name ${current.name}, so it stays on record with them. Deactivate it instead.`);
    }
    const cycle = await trx
      .selectFrom('billing_cycles')
      .select('name')
      .where('business_id', '=', business.id)
      .where(sql<boolean>`program_ids @> ${JSON.stringify([programId])}::jsonb`)
      .limit(1)
      .executeTakeFirst();
    if (cycle) {
      throw new AppError(
        ErrorCode.Conflict,
        `The billing cycle ${cycle.name} bills ${current.name}. Take it out of the cycle first, or deactivate the program instead.`,
      );
    }
    await trx.deleteFrom('programs').where('business_id', '=', business.id).where('id', '=', programId).execute();
    await recordEvent(trx, { businessId: business.id, actor: auditActor(user), action: 'program.deleted', details: { programId, name: current.name } });
  });
}

export async function getProgram(db: Kysely<DB>, { business, programId }: { business: ScopedBusiness; programId: string }): Promise<Program> {
  return loadProgram(db, business.id, programId);
}

function filtered(db: Kysely<DB>, businessId: string, query: Pick<ListQuery, 'search' | 'status' | 'frequency'>) {
  let q = db.selectFrom('programs as p').where('p.business_id', '=', businessId);
  if (query.search) {
    const needle = query.search;
    q = q.where(sql<boolean>`(strpos(lower(p.name), lower(${needle})) > 0 OR strpos(lower(p.description), lower(${needle})) > 0)`);
  }
  if (query.status) q = q.where('p.status', '=', query.status);
  if (query.frequency) q = q.where('p.frequency', '=', query.frequency);
  return q;
}

function sorted(query: ListQuery) {
  const dir = sql.raw(query.sortDirection === 'asc' ? 'ASC' : 'DESC');
  switch (query.sortBy) {
    case 'name':
      return sql`lower(p.name) ${dir}, p.id ${dir}`;
    case 'fee':
      return sql`p.fee_cents ${dir}, p.id ${dir}`;
    case 'startDate':
      return sql`p.start_date ${dir}, p.id ${dir}`;
    default:
      return sql`p.created_at ${dir}, p.id ${dir}`;
  }
}

function withEnrollmentsEver(q: ReturnType<typeof filtered>) {
  return q.selectAll('p').select((eb) =>
    eb
      .selectFrom('enrollments as en')
      .select((e) => e.fn.countAll<string>().as('n'))
      .whereRef('en.business_id', '=', 'p.business_id')
      .whereRef('en.program_id', '=', 'p.id')
      .as('enrollments_ever'),
  );
}

/** A business has tens of programs: a plain filtered, sorted page. */
export async function listPrograms(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }) {
  const base = filtered(db, business.id, query);
  return plainPage(query, withEnrollmentsEver(base).orderBy(sorted(query)), base, (rows) => rows.map((r) => toProgram(r, Number(r.enrollments_ever ?? 0))));
}

export async function* exportPrograms(db: Kysely<DB>, { business, query }: { business: ScopedBusiness; query: ListQuery }): AsyncGenerator<string> {
  const rows = await withEnrollmentsEver(filtered(db, business.id, query))
    .orderBy(sorted(query))
    .execute();
  yield (
    '\ufeff' + csvRow(['Name', 'Description', 'Fee', 'Frequency', 'Start date', 'End date', 'Enrolled', 'Capacity', 'Prorated', 'Status', 'Added']) + '\r\n'
  );
  for (const row of rows) {
    const p = toProgram(row, Number(row.enrollments_ever ?? 0));
    yield (
      csvRow([
        p.name,
        p.description,
        formatMoney(p.feeCents),
        PROGRAM_FREQUENCY_LABELS[p.frequency],
        formatDay(p.startDate),
        p.endDate ? formatDay(p.endDate) : '',
        p.enrolledCount,
        p.capacity ?? 'No limit',
        p.prorate ? 'Yes' : 'No',
        PROGRAM_STATUS_LABELS[p.status],
        formatDateTime(row.created_at, business.timeZone),
      ]) + '\r\n'
    );
  }
}
