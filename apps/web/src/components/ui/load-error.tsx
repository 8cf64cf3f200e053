import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** A failed load, said plainly, with a way to try again. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <Alert color="red" icon={<IconAlertTriangle />} title={title} role="alert">
      <Text size="sm">{message}</Text>
      {onRetry && (
        <Group mt="sm">
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        </Group>
      )}
    </Alert>
  );
}
