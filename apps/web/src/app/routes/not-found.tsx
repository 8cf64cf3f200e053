import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { paths } from '@tay/contract';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The real not-found page: what was asked for, and where to go instead. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');
  return (
    <Stack align="center" py={80} gap="md" ta="center">
      <Text fz={64} fw={800} c="blue.6" lh={1} aria-hidden="true">
        404
      </Text>
      <Title order={1}>We can’t find that page</Title>
      <Text c="dimmed" maw={520}>
        There is nothing at{' '}
        <Text span ff="monospace">
          {pathname}
        </Text>
        . The link may be old or mistyped.
      </Text>
      <Group>
        <Button component={Link} to={paths.home}>
          Go to the start page
        </Button>
        <Button variant="default" onClick={() => window.history.back()}>
          Go back
        </Button>
      </Group>
    </Stack>
  );
}
