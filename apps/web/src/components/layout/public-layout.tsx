import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Pages for visitors who are not signed in: sign-in, sign-up, password reset, not found. */
export function PublicLayout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SiteHeader />
      <Container component="main" size="xl" py="xl" style={{ flex: 1, width: '100%' }}>
        <Outlet />
      </Container>
      <SiteFooter />
    </Box>
  );
}
