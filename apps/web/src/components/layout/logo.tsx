import { Group, Text } from '@mantine/core';

/** The Tay mark and wordmark. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap" aria-hidden="true">
      <svg width={size} height={size} viewBox="0 0 64 64" role="presentation">
        <rect width="64" height="64" rx="14" fill="var(--mantine-color-blue-filled)" />
        <path d="M16 20h32v7H35.5v21h-7V27H16z" fill="#fff" />
      </svg>
      <Text fw={800} fz={size * 0.7} lh={1} c="blue.8">
        Tay
      </Text>
    </Group>
  );
}
