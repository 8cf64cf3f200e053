import { Card, Text } from '@mantine/core';

/** One figure of a summary (a balance, a count, a total): its label, the value, and a line of context. */
export function Figure({ label, value, hint }: { label: string; value: string; hint?: string | undefined }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={24} fw={700} mt={4}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}
