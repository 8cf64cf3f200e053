import { Alert, Button, Code, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { publicConfig } from '../../config/public-config';
import { useLeaveFirstScreen } from '../../lib/first-screen';
import { NotFoundPage } from './not-found';

/** Error boundary of every route: a page that failed to render says so and offers a way on. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  // A payer's page whose script failed: the server's first screen gives way to the error.
  useLeaveFirstScreen(true);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const detail = error instanceof Error ? error.message : isRouteErrorResponse(error) ? error.statusText : String(error);
  console.error(error);
  return (
    <Container size="sm" py={80}>
      <Stack gap="md">
        <Title order={1}>Something went wrong</Title>
        <Alert color="red" icon={<IconAlertTriangle />} title="This page could not be shown">
          <Text size="sm">
            Nothing you entered has been lost on our side. Reload the page to try again; if it keeps happening, contact support and mention the time it
            happened.
          </Text>
        </Alert>
        {publicConfig.environment !== 'production' && <Code block>{detail}</Code>}
        <Group>
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button variant="default" component="a" href="/">
            Go to the start page
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
