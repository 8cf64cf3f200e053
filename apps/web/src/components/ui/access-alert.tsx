import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { EndpointAccess } from '../../lib/endpoint-access';

/** Why the page's changes are switched off, when they are (`useEndpointAccess`): nothing when the person may make them. */
export function AccessAlert({ access }: { access: EndpointAccess }) {
  if (access.allowed) return null;
  return (
    <Alert color="gray" icon={<IconLock size={18} />} title={access.title}>
      {access.reason}
    </Alert>
  );
}
