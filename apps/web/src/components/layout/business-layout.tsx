import { AppShell, Button, Container, Divider, Stack, useMantineTheme } from '@mantine/core';
import { useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '@tay/contract';
import { useSession } from '../../lib/session';
import { useTemplate } from '../../lib/template';
import { BusinessStateBanner } from './business-state-banner';
import { SideNav } from './side-nav';
import { SignedInHeader, SignedInMenuLinks } from './signed-in-header';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

const NAVIGATION_ID = 'business-navigation';
const BREAKPOINT = 'lg';

/**
 * Every /business page (docs/product.md §2): the header, the left navigation beside the content — except
 * /business/user/profile, which is full width — and the footer.
 *
 * Below the large breakpoint the navigation is a drawer behind the header's burger, with the
 * header's own links (on the full-width profile page they are all it holds), so a page opens on
 * its content rather than on the menu: beside a navigation column, a tablet's content would be
 * too narrow for the tables. The drawer closes on any move to another page, on Escape and on the
 * burger. Closed, it is hidden from keyboards and screen readers as well as from sight; open, the
 * page behind it is inert.
 */
export function BusinessLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const business = session.business;
  const { template, options, setTemplate } = useTemplate(business);
  const fullWidth = pathname === paths.business.userProfile;
  const logoHref = business ? paths.business.home : paths.business.userProfile;

  const theme = useMantineTheme();
  const wide = useMediaQuery(`(min-width: ${theme.breakpoints[BREAKPOINT]})`, undefined, { getInitialValueInEffect: false });
  // Open for the page it was opened on: going to another page closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const opened = openedOn === pathname;
  const burger = useRef<HTMLButtonElement>(null);
  const toggle = () => setOpenedOn(opened ? null : pathname);
  const shown = wide ? !fullWidth : opened;
  const overPage = opened && !wide;
  // Wherever the focus is (the burger that opened it, or a link in it); a list open in it (the
  // template) closes on its own first.
  useWindowEvent('keydown', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const listOpen = target !== burger.current && target?.getAttribute('aria-expanded') === 'true';
    if (event.key === 'Escape' && overPage && !listOpen) {
      setOpenedOn(null);
      burger.current?.focus();
    }
  });

  return (
    <AppShell header={{ height: 64 }} navbar={{ width: 280, breakpoint: BREAKPOINT, collapsed: { mobile: !opened, desktop: fullWidth } }} padding={0}>
      <AppShell.Header>
        <SiteHeader logoHref={logoHref} inShell>
          <SignedInHeader
            user={session.currentUser}
            business={business}
            onSignOut={() => void session.signOut()}
            onSelectBusiness={(businessId) => {
              session.selectBusiness(businessId);
              void navigate(paths.business.home);
            }}
            navigation={{ opened, onToggle: toggle, hiddenFrom: BREAKPOINT, controls: NAVIGATION_ID }}
            burgerRef={burger}
          />
        </SiteHeader>
      </AppShell.Header>
      <AppShell.Navbar id={NAVIGATION_ID} aria-label="Business navigation" p="md" style={{ overflowY: 'auto', visibility: shown ? undefined : 'hidden' }}>
        <Stack gap="md" hiddenFrom={BREAKPOINT} mb="md">
          <Stack gap="sm" component="nav" aria-label="Main">
            <SignedInMenuLinks business={business} />
          </Stack>
          <Button variant="default" onClick={() => void session.signOut()}>
            Logout
          </Button>
          {!fullWidth && <Divider />}
        </Stack>
        {!fullWidth && (
          <SideNav
            template={template}
            templates={options}
            onTemplateChange={setTemplate}
            payoutEnabled={business?.payoutEnabled === 1}
            approved={business?.businessState === 'Approved'}
          />
        )}
      </AppShell.Navbar>
      <AppShell.Main inert={overPage} style={{ display: 'flex', flexDirection: 'column' }}>
        <Container size="xl" py="lg" style={{ flex: 1, width: '100%' }}>
          {!fullWidth && <BusinessStateBanner business={business} />}
          <Outlet context={{ template }} />
        </Container>
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}
