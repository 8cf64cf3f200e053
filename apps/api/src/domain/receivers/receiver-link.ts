import { sql, type Kysely } from 'kysely';
import { ErrorCode, formatDateTime, isValidRoutingNumber, maskNumber, type PublicReceiverLink } from '@tay/contract';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import type { SecretBox } from '../../lib/secret-box';
import { INVALID_ROUTING_NUMBER, OTHER_BANK_NAME } from '../businesses/add-bank-account';
import { recordEvent } from '../businesses/audit';
import { logoUrl } from '../businesses/business-record';
import { sandboxBankByRoutingNumber } from '../directory/sandbox-banks';
import { receiverAccountContext } from './account-context';
import { hashLinkToken } from './receiver-record';

/** Requests one device may make on one link in ten minutes (page loads, routing look-ups and tries together). */
export const RECEIVER_LINK_ATTEMPTS = { max: 60, windowSeconds: 600 } as const;

/** What the values a receiver enters look like once the contract parsed them. */
export interface ReceiverAccountValues {
  accountHolderName: string;
  routingNumber: string;
  accountNumber: string;
  accountType: 'checking' | 'savings';
}

function unknownLink(): AppError {
  return new AppError(
    ErrorCode.NotFound,
    'This link is not valid: it was already used, or a newer link replaced it. Ask the business that sent it for a new link.',
  );
}

interface LinkedReceiver {
  business_id: string;
  id: string;
  first_name: string;
  email: string;
  status: 'active' | 'Disabled';
  bank_name: string | null;
  account_number_last4: string | null;
  link_expires_at: Date | null;
  business_name: string;
  business_state: string;
  payout_enabled: number;
  time_zone: string;
  logo_updated_at: Date | null;
}

/** The receiver a link's token names, with their business; 404 unknown or used up, 410 expired. */
export async function findByLinkToken(db: Executor, token: string, { lock = false } = {}): Promise<LinkedReceiver> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw unknownLink();
  let query = db
    .selectFrom('receivers as r')
    .innerJoin('businesses as b', 'b.id', 'r.business_id')
    .select([
      'r.business_id',
      'r.id',
      'r.first_name',
      'r.email',
      'r.status',
      'r.bank_name',
      'r.account_number_last4',
      'r.link_expires_at',
      'b.business_name',
      'b.state as business_state',
      'b.payout_enabled',
      'b.time_zone',
      'b.logo_updated_at',
    ])
    .where('r.link_token_hash', '=', hashLinkToken(token));
  if (lock) query = query.forUpdate('r');
  const row = await query.executeTakeFirst();
  if (!row) throw unknownLink();
  if (!row.link_expires_at || row.link_expires_at.getTime() <= Date.now()) {
    throw new AppError(
      ErrorCode.Gone,
      `This link expired${row.link_expires_at ? ` on ${formatDateTime(row.link_expires_at, row.time_zone)}` : ''}. Ask ${row.business_name} to send you a new one.`,
      undefined,
      410,
    );
  }
  return row as LinkedReceiver;
}

/** Why the link takes no bank details now, or null when it does. */
function unavailableMessage(row: LinkedReceiver): string | null {
  if (row.business_state !== 'Approved' || !row.payout_enabled) {
    return `${row.business_name} cannot take bank details for payouts right now. Try again later, or ask them.`;
  }
  if (row.status === 'Disabled') return `${row.business_name} has paused payouts to you, so this page takes no bank details now. Ask them.`;
  return null;
}

export async function getReceiverLinkPage(db: Kysely<DB>, token: string): Promise<PublicReceiverLink> {
  const row = await findByLinkToken(db, token);
  const message = unavailableMessage(row);
  return {
    businessName: row.business_name,
    businessLogoUrl: logoUrl(row.business_id, row.logo_updated_at),
    firstName: row.first_name,
    status: message ? 'unavailable' : 'open',
    statusMessage: message,
    currentAccount: row.bank_name && row.account_number_last4 ? { bankName: row.bank_name, last4: row.account_number_last4 } : null,
    expiresAt: row.link_expires_at!.toISOString(),
  };
}

/** Whether the routing number passes the checksum, and the bank's name from the directory ("Other bank" otherwise). */
export function lookUpRouting(routingNumber: string): { routingNumber: string; valid: boolean; bankName: string | null } {
  const valid = isValidRoutingNumber(routingNumber);
  return { routingNumber, valid, bankName: valid ? (sandboxBankByRoutingNumber(routingNumber)?.bankName ?? OTHER_BANK_NAME) : null };
}

/**
 * The receiver enters their bank account (ADR 035): checked, the full number sealed in the bank
 * accounts' secret box, the receiver verified; the link is used up. The business sees the bank's
 * name and the last 4 digits only.
 */
export async function setReceiverAccount(
  db: Kysely<DB>,
  { token, body, secretBox, ip }: { token: string; body: ReceiverAccountValues; secretBox: SecretBox; ip: string | null },
): Promise<{ bankName: string; last4: string }> {
  if (!isValidRoutingNumber(body.routingNumber)) throw AppError.validation(INVALID_ROUTING_NUMBER, { routingNumber: INVALID_ROUTING_NUMBER });
  const bankName = sandboxBankByRoutingNumber(body.routingNumber)?.bankName ?? OTHER_BANK_NAME;
  const last4 = body.accountNumber.slice(-4);
  return db.transaction().execute(async (trx) => {
    const row = await findByLinkToken(trx, token, { lock: true });
    const refusal = unavailableMessage(row);
    if (refusal) throw new AppError(ErrorCode.Conflict, refusal);
    await trx
      .updateTable('receivers')
      .set({
        bank_name: bankName,
        routing_number: body.routingNumber,
        account_number_last4: last4,
        account_number_encrypted: secretBox.seal(body.accountNumber, receiverAccountContext(row.business_id, row.id)),
        account_type: body.accountType,
        account_holder_name: body.accountHolderName,
        verification: 'verified',
        bank_set_at: sql<Date>`now()`,
        link_token_hash: null,
        link_expires_at: null,
        updated_at: sql<Date>`now()`,
      })
      .where('business_id', '=', row.business_id)
      .where('id', '=', row.id)
      .execute();
    await recordEvent(trx, {
      businessId: row.business_id,
      actor: { userId: null, label: `receiver ${row.email}`, ip },
      action: 'receiver.bank_account_set',
      details: {
        receiverId: row.id,
        bankName,
        routingNumber: maskNumber(body.routingNumber),
        accountNumber: maskNumber(body.accountNumber),
        accountType: body.accountType,
        replaced: row.bank_name !== null,
      },
    });
    return { bankName, last4 };
  });
}
