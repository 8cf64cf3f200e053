import { Anchor, Box, Burger, Button, Container, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '@tay/contract';
import { publicConfig } from '../../config/public-config';
import { DrawerOnDemand as Drawer } from '../ui/drawer-on-demand';
import { Logo } from './logo';
import { MARKETING_LINKS } from './marketing-links';

export interface SiteHeaderProps {
  /** Where the logo leads (docs/product.md §2); the marketing site when omitted. */
  logoHref?: string;
  /** The signed-in part of the header; when absent the anonymous links and Login button show. */
  children?: ReactNode;
  /**
   * Inside a layout that gives the header its element and border (an app shell with a navigation
   * column): a plain box across the whole width.
   */
  inShell?: boolean;
}

/** The header on every page (docs/product.md §2). The link menu collapses into a drawer below the large breakpoint. */
export function SiteHeader({ logoHref, children, inShell = false }: SiteHeaderProps) {
  const { pathname } = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const logo = <Logo />;
  const logoLink = logoHref ? (
    <Anchor component={Link} to={logoHref} aria-label="Tay home" underline="never">
      {logo}
    </Anchor>
  ) : (
    <Anchor href={publicConfig.marketingSiteUrl} aria-label="Tay home" underline="never">
      {logo}
    </Anchor>
  );
  const showLogin = pathname !== paths.login;

  return (
    <Box component={inShell ? 'div' : 'header'} style={inShell ? undefined : { borderBottom: '1px solid var(--mantine-color-gray-3)' }} bg="white">
      <Container size="xl" fluid={inShell} h={64}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          {logoLink}
          {children ?? (
            <>
              <Group gap="lg" visibleFrom="lg" component="nav" aria-label="Tay">
                {MARKETING_LINKS.map((link) => (
                  <Anchor key={link.label} href={link.href} c="dark" fw={500} size="sm">
                    {link.label}
                  </Anchor>
                ))}
              </Group>
              <Group gap="sm" wrap="nowrap">
                {showLogin && (
                  <Button component={Link} to={paths.login}>
                    Login
                  </Button>
                )}
                <Burger opened={opened} onClick={toggle} hiddenFrom="lg" aria-label="Open the menu" aria-expanded={opened} />
              </Group>
              <Drawer opened={opened} onClose={close} title="Menu" hiddenFrom="lg" position="right" size="xs">
                <Stack component="nav" aria-label="Tay menu">
                  {MARKETING_LINKS.map((link) => (
                    <Anchor key={link.label} href={link.href} c="dark" fw={500}>
                      {link.label}
                    </Anchor>
                  ))}
                </Stack>
              </Drawer>
            </>
          )}
        </Group>
      </Container>
    </Box>
  );
}
