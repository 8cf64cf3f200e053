import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

/** The logo image, public like any logo on a web page: the unguessable business id is the only key. */
export async function getLogo({ db, businessId }: { db: Executor; businessId: string }): Promise<{ contentType: string; bytes: Buffer }> {
  const row = await db.selectFrom('businesses').select(['logo', 'logo_content_type']).where('id', '=', businessId).executeTakeFirst();
  if (!row?.logo || !row.logo_content_type) throw AppError.notFound('Logo');
  return { contentType: row.logo_content_type, bytes: row.logo };
}
