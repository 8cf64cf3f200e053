import type { CurrentUser } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import { getCurrentUser } from './get-current-user';

/** PATCH /api/enrollReminder (docs/product.md §7): whether reminders reach the person by e-mail and by text message. */
export async function updateNotificationPreferences({
  db,
  userId,
  viaEmail,
  viaMobileNumber,
}: {
  db: Executor;
  userId: string;
  viaEmail: boolean;
  viaMobileNumber: boolean;
}): Promise<CurrentUser> {
  const updated = await db
    .updateTable('users')
    .set({
      enroll_notification_via_email: viaEmail,
      enroll_notification_via_mobile_number: viaMobileNumber,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw AppError.notFound('User');
  return getCurrentUser({ db, userId });
}
