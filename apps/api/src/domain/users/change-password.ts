import { hashPassword, passwordProblem, verifyPassword } from '../../auth/password';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

export interface ChangePasswordOptions {
  db: Executor;
  userId: string;
  /** The session asking: it stays signed in whatever happens to the others. */
  sessionId: string;
  currentPassword: string;
  newPassword: string;
  /** End every other session of the person (a phone left signed in, a session someone took). */
  revokeOtherSessions: boolean;
}

const WRONG_CURRENT = 'Your current password is not right.';

/**
 * Replaces the password of a signed-in person who knows it, and by default ends their other
 * sessions in the same transaction: whoever else held a session no longer does once the new
 * password is in place.
 */
export async function changePassword({ db, userId, sessionId, currentPassword, newPassword, revokeOtherSessions }: ChangePasswordOptions): Promise<void> {
  const account = await db
    .selectFrom('accounts as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.password', 'u.email'])
    .where('a.user_id', '=', userId)
    .where('a.provider_id', '=', 'credential')
    .executeTakeFirst();
  if (!account?.password) throw new AppError('CREDENTIAL_ACCOUNT_NOT_FOUND', 'This account has no password to change.');
  if (!(await verifyPassword({ hash: account.password, password: currentPassword }))) {
    throw new AppError('INVALID_PASSWORD', WRONG_CURRENT, { currentPassword: WRONG_CURRENT }, 400);
  }
  const problem = passwordProblem(newPassword, account.email);
  if (problem) throw new AppError('WEAK_PASSWORD', problem, { newPassword: problem }, 400);
  const hash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('accounts').set({ password: hash, updated_at: new Date() }).where('id', '=', account.id).execute();
    if (revokeOtherSessions) await trx.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', sessionId).execute();
  });
}
