import { ErrorCode } from '@tay/contract';
import { hashPassword, temporaryPassword } from '../../auth/password';
import type { Transaction } from 'kysely';
import type { Executor } from '../../db/executor';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newId } from '../../lib/ids';

export const TEMPORARY_PASSWORD_DAYS = 7;

export interface CreateUserByOperatorOptions {
  db: Executor;
  email: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

export interface CreatedUser {
  userId: string;
  email: string;
  temporaryPassword: string;
  expiresAt: Date;
  reissued: boolean;
}

/**
 * A user created by someone else (docs/product.md §4 new-password challenge): confirmed, with a temporary
 * password that works for 7 days and must be replaced at first sign-in. Running it again for a
 * user who has not yet chosen a password issues a new temporary password.
 */
export async function createUserByOperator({ db, email, firstName, lastName }: CreateUserByOperatorOptions): Promise<CreatedUser> {
  const address = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
    throw AppError.validation(`"${email}" is not an e-mail address.`, { email: 'Enter an e-mail address.' });
  }
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  const expiresAt = new Date(Date.now() + TEMPORARY_PASSWORD_DAYS * 24 * 3600 * 1000);

  return db.transaction().execute((trx) => issueTemporaryPassword(trx, { address, hash, password, expiresAt, firstName, lastName }));
}

/**
 * Inside the caller's transaction: a new user with a temporary password, or a new temporary
 * password for one who has not yet chosen their own (their sessions end). 409 for a person with a
 * password of their own.
 */
export async function issueTemporaryPassword(
  trx: Transaction<DB>,
  {
    address,
    hash,
    password,
    expiresAt,
    firstName,
    lastName,
  }: { address: string; hash: string; password: string; expiresAt: Date; firstName?: string | undefined; lastName?: string | undefined },
): Promise<CreatedUser> {
  const existing = await trx.selectFrom('users').select(['id', 'must_change_password']).where('email', '=', address).forUpdate().executeTakeFirst();
  if (existing && !existing.must_change_password) {
    throw new AppError(ErrorCode.Conflict, `${address} already has an account with a password of their own.`);
  }
  const now = new Date();
  if (existing) {
    await trx.updateTable('users').set({ temporary_password_expires_at: expiresAt, updated_at: now }).where('id', '=', existing.id).execute();
    await trx
      .updateTable('accounts')
      .set({ password: hash, updated_at: now })
      .where('user_id', '=', existing.id)
      .where('provider_id', '=', 'credential')
      .execute();
    await trx.deleteFrom('sessions').where('user_id', '=', existing.id).execute();
    return { userId: existing.id, email: address, temporaryPassword: password, expiresAt, reissued: true };
  }
  const userId = newId('usr');
  await trx
    .insertInto('users')
    .values({
      id: userId,
      name: address,
      email: address,
      email_verified: true,
      image: null,
      first_name: firstName?.trim() || null,
      last_name: lastName?.trim() || null,
      mobile_number: null,
      must_change_password: true,
      temporary_password_expires_at: expiresAt,
    })
    .execute();
  await trx
    .insertInto('accounts')
    .values({ id: newId('acc'), account_id: userId, provider_id: 'credential', user_id: userId, password: hash })
    .execute();
  return { userId, email: address, temporaryPassword: password, expiresAt, reissued: false };
}
