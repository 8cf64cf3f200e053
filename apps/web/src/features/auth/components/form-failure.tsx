import { Alert, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A failure next to the form: the docs/product.md §8 identity message as title, then what to do. */
export function FormFailure({ title, message, children }: { title: string; message: string; children?: ReactNode }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} title={title} role="alert">
      <Text size="sm">{message}</Text>
      {children}
    </Alert>
  );
}
