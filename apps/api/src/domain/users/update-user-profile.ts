import type { CurrentUser, UpdateUserProfileBody } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import { getCurrentUser } from './get-current-user';

/** PATCH /api/user: names and mobile number; filling them in completes the profile (docs/product.md §4). */
export async function updateUserProfile({ db, userId, body }: { db: Executor; userId: string; body: UpdateUserProfileBody }): Promise<CurrentUser> {
  const updated = await db
    .updateTable('users')
    .set({
      first_name: body.firstName,
      last_name: body.lastName,
      mobile_number: body.mobileNumber,
      user_state: 'complete',
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw AppError.notFound('User');
  return getCurrentUser({ db, userId });
}
