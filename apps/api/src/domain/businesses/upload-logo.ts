import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Business } from '@tay/contract';
import type { DB } from '../../db/schema';
import { assertEditable } from './access';
import { recordEvent, type Actor } from './audit';
import { loadBusiness, lockBusinessRow } from './business-record';
import { parseLogoDataUrl } from './logo-image';

/** POST /api/businesses/:id/logo: replaces the logo; `logoUrl` changes with it. */
export async function uploadLogo({
  db,
  businessId,
  actor,
  dataUrl,
}: {
  db: Kysely<DB>;
  businessId: string;
  actor: Actor & { userId: string };
  dataUrl: string;
}): Promise<Business> {
  const image = parseLogoDataUrl(dataUrl);
  return db.transaction().execute(async (trx) => {
    const row = await lockBusinessRow(trx, businessId);
    assertEditable(row);
    // clock_timestamp(): two uploads in one second still get different logo URLs.
    await trx
      .updateTable('businesses')
      .set({
        logo: image.bytes,
        logo_content_type: image.contentType,
        logo_updated_at: sql<Date>`clock_timestamp()`,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', businessId)
      .execute();
    await recordEvent(trx, {
      businessId,
      actor,
      action: 'logo.updated',
      details: { contentType: image.contentType, bytes: image.bytes.length },
    });
    return loadBusiness(trx, businessId);
  });
}
