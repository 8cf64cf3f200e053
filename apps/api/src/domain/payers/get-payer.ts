import type { Kysely } from 'kysely';
import type { Payer } from '@tay/contract';
import type { DB } from '../../db/schema';
import { requirePayerReader } from './payer-access';
import { loadPayer } from './payer-record';

/** GET /api/businesses/:id/payers/:payerId. */
export async function getPayer({ db, businessId, payerId, userId }: { db: Kysely<DB>; businessId: string; payerId: string; userId: string }): Promise<Payer> {
  await requirePayerReader(db, { businessId, userId });
  return loadPayer(db, businessId, payerId);
}
