import { Badge } from '@mantine/core';
import { ROLE_LABELS, type MemberRole } from '@tay/contract';

const COLORS: Record<MemberRole, string> = { owner: 'grape', admin: 'blue', member: 'teal', viewer: 'gray' };

export function RoleBadge({ role }: { role: MemberRole }) {
  return (
    <Badge color={COLORS[role]} variant="light">
      {ROLE_LABELS[role].label}
    </Badge>
  );
}
