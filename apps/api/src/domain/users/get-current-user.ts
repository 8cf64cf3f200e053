import type { CurrentUser } from '@tay/contract';
import type { Executor } from '../../db/executor';
import { AppError } from '../../lib/app-error';
import { listUserBusinesses } from '../businesses/list-user-businesses';

/** The signed-in person as docs/product.md §3 describes them, with the businesses they belong to. */
export async function getCurrentUser({ db, userId }: { db: Executor; userId: string }): Promise<CurrentUser> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw AppError.notFound('User');
  return {
    name: user.email,
    userId: user.id,
    userState: user.user_state,
    firstName: user.first_name,
    lastName: user.last_name,
    mobileNumber: user.mobile_number,
    enrollNotificationViaEmail: user.enroll_notification_via_email,
    enrollNotificationViaMobileNumber: user.enroll_notification_via_mobile_number,
    createdAt: user.created_at.toISOString(),
    businesses: await listUserBusinesses({ db, userId }),
  };
}
