import { Box, Container, Grid } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { paths } from '@tay/contract';
import { useSession } from '../../lib/session';
import { useTemplate } from '../../lib/template';
import { BusinessStateBanner } from './business-state-banner';
import { SideNav } from './side-nav';
import { SignedInHeader } from './signed-in-header';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * Every /business page (spec §2): the header, the left navigation in 3 of 12 columns with the
 * content in 9 — except /business/user/profile, which is full width — and the footer.
 */
export function BusinessLayout() {
  const { pathname } = useLocation();
  const session = useSession();
  const business = session.currentUser?.businesses[0];
  const { template, options, setTemplate } = useTemplate(business);
  const fullWidth = pathname === paths.business.userProfile;
  const logoHref = business ? paths.business.home : paths.business.userProfile;

  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SiteHeader logoHref={logoHref}>
        <SignedInHeader user={session.currentUser} business={business} onSignOut={() => void session.signOut()} />
      </SiteHeader>
      <Container component="main" size="xl" py="lg" style={{ flex: 1, width: '100%' }}>
        {fullWidth ? (
          <Outlet />
        ) : (
          <Grid gap="xl">
            <Grid.Col span={{ base: 12, md: 3 }}>
              <SideNav
                template={template}
                templates={options}
                onTemplateChange={setTemplate}
                payoutEnabled={business?.payoutEnabled === 1}
                approved={business?.businessState === 'Approved'}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 9 }}>
              <BusinessStateBanner business={business} />
              <Outlet context={{ template }} />
            </Grid.Col>
          </Grid>
        )}
      </Container>
      <SiteFooter />
    </Box>
  );
}
