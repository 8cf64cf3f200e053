import { Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/**
 * A list's first cell: the row's name in bold, and under it one small line that says more (a
 * reference, a place, what went wrong) when there is something to say, then anything else
 * the row shows beside its name (a badge).
 */
export function NameCell(props: {
  name: ReactNode;
  detail?: ReactNode;
  tone?: 'dimmed' | 'red';
  clamp?: boolean;
  style?: CSSProperties;
  children?: ReactNode;
}) {
  const { detail } = props;
  return (
    <div style={props.style}>
      <Text size="sm" fw={500}>
        {props.name}
      </Text>
      {detail !== undefined && detail !== null && detail !== false && detail !== '' && (
        <Text size="xs" c={props.tone ?? 'dimmed'} {...(props.clamp ? { lineClamp: 1 } : {})}>
          {detail}
        </Text>
      )}
      {props.children}
    </div>
  );
}
