import type { Kysely } from 'kysely';
import type { Business, CreateBusinessBody } from '@tay/contract';
import type { DB } from '../../db/schema';
import { newId } from '../../lib/ids';
import { recordEvent, type Actor } from './audit';
import { loadBusiness } from './business-record';

export interface CreateBusinessOptions {
  db: Kysely<DB>;
  /** The signed-in person: they become the business's owner member. */
  actor: Actor & { userId: string };
  body: CreateBusinessBody;
}

/** Onboarding starts here: an Incomplete business with one entity of the chosen template (docs/product.md §1). */
export async function createBusiness({ db, actor, body }: CreateBusinessOptions): Promise<Business> {
  const businessId = newId('biz');
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('businesses').values({ id: businessId, business_name: body.businessName, entity_type: body.entityType }).execute();
    await trx.insertInto('business_members').values({ business_id: businessId, user_id: actor.userId, role: 'owner' }).execute();
    await recordEvent(trx, {
      businessId,
      actor,
      action: 'business.created',
      details: { businessName: body.businessName, entityType: body.entityType },
    });
    return loadBusiness(trx, businessId);
  });
}
