import { Alert, Anchor, Text } from '@mantine/core';
import { IconClockHour4, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths, type UserBusinessSummary } from '@tay/contract';

/** The setup overview and its pages, where the steps and the submission are the page itself. */
function isSetupPage(pathname: string): boolean {
  return pathname === paths.business.setup || pathname.startsWith(`${paths.business.setup}/`) || pathname === paths.business.owners;
}

/** Why the menus are locked and what happens next, for any business that is not Approved. */
export function BusinessStateBanner({ business }: { business: UserBusinessSummary | undefined }) {
  const { pathname } = useLocation();
  if (!business || business.businessState === 'Approved') return null;
  if (business.businessState === 'Pending') {
    return (
      <Alert color="yellow" icon={<IconClockHour4 />} title="Your business is being reviewed" mb="md">
        <Text size="sm">
          We are checking the details you submitted. Payments, payouts and reports unlock as soon as the review is done; we will e-mail you. You can still look
          over your setup meanwhile.
        </Text>
      </Alert>
    );
  }
  if (business.businessState === 'Disabled') {
    return (
      <Alert color="red" icon={<IconLock />} title="Your business is disabled" mb="md">
        <Text size="sm">
          Operations disabled this business, so payments, payouts and reports are locked. Contact Tay support to find out why and what is needed to enable it
          again.
        </Text>
      </Alert>
    );
  }
  // "Complete the setup steps" would repeat what the setup pages themselves show.
  if (isSetupPage(pathname)) return null;
  return (
    <Alert color="blue" icon={<IconInfoCircle />} title="Finish setting up your business" mb="md">
      <Text size="sm">
        Payments, payouts and reports unlock once your business is approved. Complete the{' '}
        <Anchor component={Link} to={paths.business.setup} inherit>
          setup steps
        </Anchor>{' '}
        and submit them for review.
      </Text>
    </Alert>
  );
}
