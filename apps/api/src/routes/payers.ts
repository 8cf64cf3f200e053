import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { payerEndpoints as e } from '@tay/contract';
import type { DB } from '../db/schema';
import { userActor } from '../domain/businesses/audit';
import { createPayer } from '../domain/payers/create-payer';
import { deletePayer } from '../domain/payers/delete-payer';
import { exportPayers } from '../domain/payers/export-payers';
import { getPayer } from '../domain/payers/get-payer';
import { importPayers } from '../domain/payers/import-payers';
import { listPayers } from '../domain/payers/list-payers';
import { payerHistory } from '../domain/payers/payer-history';
import { previewPayerImport } from '../domain/payers/preview-payer-import';
import { resendVerification } from '../domain/payers/resend-verification';
import { reverifyPayer } from '../domain/payers/reverify-payer';
import { searchPayers } from '../domain/payers/search-payers';
import { setPayerStatus } from '../domain/payers/set-payer-status';
import { updatePayer } from '../domain/payers/update-payer';
import { verifyPayer } from '../domain/payers/verify-payer';
import { endpointMounter, success } from '../http/mount';
import type { Mailer } from '../mail/mailer';

export interface PayerRoutesOptions {
  db: Kysely<DB>;
  mailer: Pick<Mailer, 'send'>;
  /** Where the verification links in e-mails point. */
  publicUrl: string;
}

/** A 2 MB file grows when it is escaped into JSON; the contract limits the file itself. */
const IMPORT_BODY_LIMIT = 6 * 1024 * 1024;

/** The payers area (`packages/contract/src/payers/endpoints.ts`). */
export const payerRoutes: FastifyPluginAsync<PayerRoutesOptions> = async (app, { db, mailer, publicUrl }) => {
  const mount = endpointMounter(app, db);
  const mailing = { db, mailer, publicUrl };

  mount(e.list, async ({ business, query }) => success(await listPayers({ db, businessId: business.id, query })));

  mount(e.exportCsv, async ({ business, query, reply }) => {
    const { filename, lines } = await exportPayers({ db, businessId: business.id, query });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines));
  });

  mount(e.create, async ({ business, session, body }) =>
    success(await createPayer({ ...mailing, businessId: business.id, businessName: business.name, actor: userActor(session.user), body })),
  );

  mount(e.previewImport, async ({ business, body }) => success(await previewPayerImport({ db, businessId: business.id, body })), {
    bodyLimit: IMPORT_BODY_LIMIT,
  });

  mount(e.import, async ({ business, session, body }) => success(await importPayers({ db, businessId: business.id, actor: userActor(session.user), body })), {
    bodyLimit: IMPORT_BODY_LIMIT,
  });

  mount(e.get, async ({ business, params }) => success(await getPayer({ db, businessId: business.id, payerId: params.payerId })));

  mount(e.history, async ({ business, params }) => success(await payerHistory({ db, businessId: business.id, payerId: params.payerId })));

  mount(e.update, async ({ business, session, params, body }) =>
    success(
      await updatePayer({ ...mailing, businessId: business.id, businessName: business.name, payerId: params.payerId, actor: userActor(session.user), body }),
    ),
  );

  mount(e.delete, async ({ business, session, params }) =>
    success(await deletePayer({ db, businessId: business.id, payerId: params.payerId, actor: userActor(session.user) })),
  );

  mount(e.activate, async ({ business, session, params }) =>
    success(await setPayerStatus({ db, businessId: business.id, payerId: params.payerId, to: 'active', actor: userActor(session.user) })),
  );
  mount(e.deactivate, async ({ business, session, params }) =>
    success(await setPayerStatus({ db, businessId: business.id, payerId: params.payerId, to: 'Disabled', actor: userActor(session.user) })),
  );
  mount(e.resendVerification, async ({ business, session, params }) =>
    success(
      await resendVerification({ ...mailing, businessId: business.id, businessName: business.name, payerId: params.payerId, actor: userActor(session.user) }),
    ),
  );
  mount(e.reverify, async ({ business, session, params }) =>
    success(await reverifyPayer({ ...mailing, businessId: business.id, businessName: business.name, payerId: params.payerId, actor: userActor(session.user) })),
  );

  mount(e.typeahead, async ({ business, query }) =>
    success(await searchPayers({ db, businessId: business.id, q: query.q, limit: query.limit, includeDisabled: query.includeDisabled })),
  );

  mount(e.verify, async ({ params }) => success(await verifyPayer({ db, token: params.token })));
};
