import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** What a request came from (its invoice, its QR code), as a small badge that opens it. */
export function LinkBadge(props: { to: string; color: string; label: string; icon?: ReactNode; monospace?: boolean; children: ReactNode }) {
  return (
    <Badge
      component={Link}
      to={props.to}
      variant="light"
      color={props.color}
      radius="sm"
      {...(props.icon ? { leftSection: props.icon } : {})}
      {...(props.monospace ? { ff: 'monospace' } : {})}
      style={{ cursor: 'pointer', textTransform: 'none' }}
      aria-label={props.label}
    >
      {props.children}
    </Badge>
  );
}
