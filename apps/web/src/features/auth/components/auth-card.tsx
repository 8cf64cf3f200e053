import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The frame of every identity screen: a heading, one sentence of purpose, the form. */
export function AuthCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={460} mx="auto" mt="xl">
      <Stack gap="md">
        <div>
          <Title order={1} fz={26}>
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm" mt={6}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
