import type { Kysely } from 'kysely';
import type { Payer } from '@tay/contract';
import type { DB } from '../../db/schema';
import { loadPayer } from './payer-record';

/** GET /api/businesses/:id/payers/:payerId. */
export async function getPayer({ db, businessId, payerId }: { db: Kysely<DB>; businessId: string; payerId: string }): Promise<Payer> {
  return loadPayer(db, businessId, payerId);
}
