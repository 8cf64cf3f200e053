import { Box, Container, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { Logo } from './logo';

/** The payer's pages: no portal menus, only the business they pay and a note that it is secure. */
export function PayLayout() {
  return (
    <Box mih="100vh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="sm" h={56}>
          <Group h="100%" justify="space-between">
            <Logo size={26} />
            <Group gap={6} c="dimmed">
              <IconLock size={16} aria-hidden="true" />
              <Text size="sm">Secure payment</Text>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container component="main" size="sm" py="xl" style={{ flex: 1, width: '100%' }}>
        <Outlet />
      </Container>
      <Text component="footer" size="xs" c="dimmed" ta="center" py="md">
        Payments are processed by Tay on behalf of the business. Card details go straight to our payment processor.
      </Text>
    </Box>
  );
}
