import { ActionIcon, Anchor, Avatar, Burger, Button, Drawer, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuildingStore, IconSettings } from '@tabler/icons-react';
import { Link, NavLink } from 'react-router';
import { paths, type CurrentUser, type UserBusinessSummary } from '@tay/contract';

export interface MenuLink {
  label: string;
  to: string;
}

/** Spec §2 signed-in menu: Home, Profile, then the Approved-only areas. */
export function signedInMenu(business: UserBusinessSummary | undefined): MenuLink[] {
  const links: MenuLink[] = [
    { label: 'Home', to: paths.business.home },
    { label: 'Profile', to: paths.business.userProfile },
  ];
  if (business?.businessState === 'Approved') {
    links.push({ label: 'Payments In', to: '/business/payment' });
    if (business.payoutEnabled === 1) links.push({ label: 'Payouts', to: '/business/payouts' });
    links.push({ label: 'Analytics', to: '/business/analytics' }, { label: 'Setup & Administration', to: paths.business.setup });
  }
  return links;
}

interface Props {
  user: CurrentUser | undefined;
  business: UserBusinessSummary | undefined;
  onSignOut: () => void;
}

/** The signed-in part of the header: menu, settings icon, greeting, business logo, Logout. */
export function SignedInHeader({ user, business, onSignOut }: Props) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const links = signedInMenu(business);
  const menu = (vertical: boolean) =>
    links.map((link) => (
      <Anchor
        key={link.to}
        component={NavLink}
        to={link.to}
        onClick={vertical ? close : undefined}
        c="dark"
        fw={500}
        size="sm"
        style={({ isActive }: { isActive: boolean }) => (isActive ? { color: 'var(--mantine-color-blue-7)' } : undefined)}
      >
        {link.label}
      </Anchor>
    ));
  const logo = business?.businessProfile.logoUrl;

  return (
    <>
      <Group gap="lg" visibleFrom="lg" component="nav" aria-label="Main">
        {menu(false)}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Tooltip label="Business setup">
          <ActionIcon component={Link} to={paths.business.setup} variant="subtle" color="gray" size="lg" aria-label="Business setup">
            <IconSettings size={20} />
          </ActionIcon>
        </Tooltip>
        {user?.firstName && (
          <Text size="sm" visibleFrom="sm">
            Hi, {user.firstName}
          </Text>
        )}
        <Avatar src={logo ?? null} alt={business ? `${business.businessName} logo` : 'Business logo'} radius="sm" size={32} color="blue">
          <IconBuildingStore size={18} aria-hidden="true" />
        </Avatar>
        <Button variant="default" size="xs" onClick={onSignOut} visibleFrom="lg">
          Logout
        </Button>
        <Burger opened={opened} onClick={toggle} hiddenFrom="lg" aria-label="Open the menu" />
      </Group>
      <Drawer opened={opened} onClose={close} title="Menu" hiddenFrom="lg" position="right" size="xs">
        <Stack component="nav" aria-label="Main menu">
          {menu(true)}
          <Button variant="default" onClick={onSignOut}>
            Logout
          </Button>
        </Stack>
      </Drawer>
    </>
  );
}
