import type { MissingItem } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { loadBusiness } from './business-record';
import { missingItems } from './completeness';

/** Spec §4 "update, then prepare-submit, then submit": what is still missing, in words a person can act on. */
export async function prepareSubmit({ db, businessId }: { db: Executor; businessId: string }): Promise<{ ready: boolean; missing: MissingItem[] }> {
  const missing = missingItems(await loadBusiness(db, businessId));
  return { ready: missing.length === 0, missing };
}
