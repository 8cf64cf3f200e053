import { ActionIcon, Anchor, Avatar, Burger, Button, Group, Menu, Text, Tooltip, UnstyledButton, type MantineBreakpoint } from '@mantine/core';
import { IconBuildingStore, IconCheck, IconChevronDown, IconLogout, IconSettings, IconShieldLock, IconUser, IconUserCog } from '@tabler/icons-react';
import type { Ref } from 'react';
import { Link, NavLink } from 'react-router';
import { paths, type CurrentUser, type UserBusinessSummary } from '@tay/contract';
import { BusinessSearch } from './business-search';

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
    links.push({ label: 'Payments In', to: paths.payments.landing });
    if (business.payoutEnabled === 1) links.push({ label: 'Payouts', to: paths.payouts.root });
    links.push({ label: 'Analytics', to: paths.analytics.root }, { label: 'Setup & Administration', to: paths.business.setup });
  }
  return links;
}

/** The signed-in menu's links, in a row in the header or a column in the navigation drawer. */
export function SignedInMenuLinks({ business }: { business: UserBusinessSummary | undefined }) {
  return signedInMenu(business).map((link) => (
    <Anchor
      key={link.to}
      component={NavLink}
      to={link.to}
      c="dark"
      fw={500}
      size="sm"
      style={({ isActive }: { isActive: boolean }) => (isActive ? { color: 'var(--mantine-color-blue-8)' } : undefined)}
    >
      {link.label}
    </Anchor>
  ));
}

/** The burger that shows and hides the navigation drawer, on screens too narrow for the navigation column. */
export interface NavigationToggle {
  opened: boolean;
  onToggle: () => void;
  /** From this breakpoint up the navigation has room of its own, and the burger goes. */
  hiddenFrom: MantineBreakpoint;
  /** The id of the navigation it shows. */
  controls: string;
}

interface Props {
  user: CurrentUser | undefined;
  business: UserBusinessSummary | undefined;
  onSignOut: () => void;
  /** Switches to another of the person's businesses (shown when they have more than one). */
  onSelectBusiness: (businessId: string) => void;
  navigation: NavigationToggle;
  burgerRef?: Ref<HTMLButtonElement>;
}

/**
 * The person's own menu, opened from their greeting and the business logo: their profile, the
 * profile settings (password, notifications) and Logout.
 */
function UserMenu({ user, business, onSignOut, onSelectBusiness }: Pick<Props, 'user' | 'business' | 'onSignOut' | 'onSelectBusiness'>) {
  const greeting = user?.firstName ? `Hi, ${user.firstName}` : null;
  const logo = business?.businessProfile.logoUrl;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* The name starts with the greeting it shows, so speech commands can name it. */}
        <UnstyledButton aria-label={greeting ? `${greeting}: your account` : 'Your account'}>
          <Group gap={8} wrap="nowrap">
            {greeting && (
              <Text size="sm" visibleFrom="sm">
                {greeting}
              </Text>
            )}
            <Avatar src={logo ?? null} alt={business ? `${business.businessName} logo` : 'Business logo'} radius="sm" size={32} color="blue">
              <IconBuildingStore size={18} aria-hidden="true" />
            </Avatar>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {user && <Menu.Label>{user.name}</Menu.Label>}
        {user && user.businesses.length > 1 && (
          <>
            <Menu.Label>Switch business</Menu.Label>
            {user.businesses.map((b) => {
              const current = b.businessId === business?.businessId;
              return (
                <Menu.Item
                  key={b.businessId}
                  onClick={() => !current && onSelectBusiness(b.businessId)}
                  aria-current={current ? 'true' : undefined}
                  leftSection={current ? <IconCheck size={16} aria-hidden="true" /> : <IconBuildingStore size={16} aria-hidden="true" />}
                >
                  {b.businessName}
                </Menu.Item>
              );
            })}
            <Menu.Divider />
          </>
        )}
        <Menu.Item component={Link} to={paths.business.userProfile} leftSection={<IconUser size={16} aria-hidden="true" />}>
          Your profile
        </Menu.Item>
        <Menu.Item component={Link} to={paths.business.settingsProfile} leftSection={<IconUserCog size={16} aria-hidden="true" />}>
          Profile settings
        </Menu.Item>
        <Menu.Item component={Link} to={paths.business.settingsSecurity} leftSection={<IconShieldLock size={16} aria-hidden="true" />}>
          Security
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={onSignOut} leftSection={<IconLogout size={16} aria-hidden="true" />}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The signed-in part of the header: menu, settings icon, the person's menu with their greeting and the business logo, Logout. */
export function SignedInHeader({ user, business, onSignOut, onSelectBusiness, navigation, burgerRef }: Props) {
  return (
    <>
      <Group gap="lg" visibleFrom="lg" component="nav" aria-label="Main">
        <SignedInMenuLinks business={business} />
      </Group>
      <Group gap="sm" wrap="nowrap">
        <BusinessSearch businessId={business?.businessId} />
        <Tooltip label="Business setup">
          <ActionIcon component={Link} to={paths.business.setup} variant="subtle" color="gray" size="lg" aria-label="Business setup">
            <IconSettings size={20} />
          </ActionIcon>
        </Tooltip>
        <UserMenu user={user} business={business} onSignOut={onSignOut} onSelectBusiness={onSelectBusiness} />
        <Button variant="default" size="xs" onClick={onSignOut} visibleFrom="lg">
          Logout
        </Button>
        <Burger
          ref={burgerRef}
          opened={navigation.opened}
          onClick={navigation.onToggle}
          hiddenFrom={navigation.hiddenFrom}
          aria-label="Menu"
          aria-expanded={navigation.opened}
          aria-controls={navigation.controls}
        />
      </Group>
    </>
  );
}
