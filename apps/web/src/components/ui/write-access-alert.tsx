import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { WriteAccess } from '../../lib/write-access';

/** Why the page's changes are switched off, when they are: nothing when the person may change things. */
export function WriteAccessAlert({ access }: { access: WriteAccess }) {
  if (access.allowed) return null;
  return (
    <Alert color="gray" icon={<IconLock size={18} />} title={access.title}>
      {access.reason}
    </Alert>
  );
}
