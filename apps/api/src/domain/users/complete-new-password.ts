import { ErrorCode } from '@tay/contract';
import { hashPassword, passwordProblem } from '../../auth/password';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';

export interface CompleteNewPasswordOptions {
  db: Executor;
  userId: string;
  /** The session that met the challenge stays signed in; every other session ends. */
  keepSessionId: string;
  newPassword: string;
}

/** The new-password-required challenge (docs/product.md §4): a temporary password is replaced for good. */
export async function completeNewPassword({ db, userId, keepSessionId, newPassword }: CompleteNewPasswordOptions): Promise<void> {
  const user = await db.selectFrom('users').select(['email', 'must_change_password']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError(ErrorCode.Unauthorized, 'Sign in to continue.');
  if (!user.must_change_password) {
    throw new AppError(ErrorCode.Conflict, 'Your password is already set. Change it from your profile settings instead.');
  }
  const problem = passwordProblem(newPassword, user.email);
  if (problem) throw AppError.validation(problem, { newPassword: problem });
  const hash = await hashPassword(newPassword);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('accounts')
      .set({ password: hash, updated_at: new Date() })
      .where('user_id', '=', userId)
      .where('provider_id', '=', 'credential')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new Error(`user ${userId} has no password credential`);
    await trx
      .updateTable('users')
      .set({ must_change_password: false, temporary_password_expires_at: null, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keepSessionId).execute();
  });
}
