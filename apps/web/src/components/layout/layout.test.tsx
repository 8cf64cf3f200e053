import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { EntityType, UserBusinessSummary } from '@tay/contract';
import { SideNav } from './side-nav';
import { signedInMenu, SignedInHeader } from './signed-in-header';

const business = (over: Partial<UserBusinessSummary> = {}): UserBusinessSummary => ({
  businessId: 'biz_1',
  businessName: 'Acme Tutoring',
  businessState: 'Approved',
  role: 'owner',
  payoutEnabled: 0,
  entities: [{ entityType: 'student', entityTemplateName: 'School' }],
  businessProfile: { logoUrl: null },
  ...over,
});

function renderAt(ui: React.ReactNode, path = '/business/home') {
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('signed-in menu (docs/product.md §2)', () => {
  it('shows only Home and Profile until the business is Approved', () => {
    for (const state of ['Incomplete', 'Pending', 'Disabled'] as const) {
      expect(signedInMenu(business({ businessState: state })).map((l) => l.label)).toEqual(['Home', 'Profile']);
    }
    expect(signedInMenu(undefined).map((l) => l.label)).toEqual(['Home', 'Profile']);
  });

  it('adds Payments In, Analytics, Setup & Administration when Approved, and Payouts only with payoutEnabled 1', () => {
    expect(signedInMenu(business()).map((l) => [l.label, l.to])).toEqual([
      ['Home', '/business/home'],
      ['Profile', '/business/user/profile'],
      ['Payments In', '/business/payment'],
      ['Analytics', '/business/analytics'],
      ['Setup & Administration', '/business/setup'],
    ]);
    expect(signedInMenu(business({ payoutEnabled: 1 })).map((l) => l.label)).toContain('Payouts');
  });

  it('greets the person by first name and falls back to the default logo', () => {
    renderAt(
      <SignedInHeader
        user={{
          name: 'ana@example.com',
          userId: 'usr_1',
          userState: 'complete',
          firstName: 'Ana',
          lastName: 'Diaz',
          mobileNumber: null,
          enrollNotificationViaEmail: true,
          enrollNotificationViaMobileNumber: false,
          createdAt: new Date().toISOString(),
          businesses: [],
        }}
        business={business({ businessState: 'Pending' })}
        onSignOut={() => {}}
        onSelectBusiness={() => {}}
        navigation={{ opened: false, onToggle: () => {}, hiddenFrom: 'lg', controls: 'business-navigation' }}
      />,
    );
    expect(screen.getByText('Hi, Ana')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Business setup' })).toHaveAttribute('href', '/business/setup');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Payments In' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });
});

function NavHarness({ approved, payoutEnabled, initial = 'standard' as EntityType }: { approved: boolean; payoutEnabled: boolean; initial?: EntityType }) {
  const [template, setTemplate] = useState<EntityType>(initial);
  return (
    <SideNav
      template={template}
      templates={[
        { value: 'standard', label: 'Standard' },
        { value: 'student', label: 'School' },
      ]}
      onTemplateChange={setTemplate}
      payoutEnabled={payoutEnabled}
      approved={approved}
    />
  );
}

describe('left navigation (docs/product.md §2)', () => {
  it('greys every item unless the business is Approved', () => {
    renderAt(<NavHarness approved={false} payoutEnabled={false} />);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(
      screen.getByText('Single Request to Pay').closest('[data-disabled]') ?? screen.getByText('Single Request to Pay').closest('[aria-disabled="true"]'),
    ).not.toBeNull();
  });

  it('links the items of an Approved business and marks the active section', () => {
    renderAt(<NavHarness approved payoutEnabled />, '/business/payouts/receivers');
    expect(screen.getByRole('link', { name: 'Manage Receivers' })).toHaveAttribute('href', '/business/payouts/receivers');
    expect(screen.getByText('Payments out')).toHaveAttribute('data-active', 'true');
    expect(screen.getByText('Payments In')).not.toHaveAttribute('data-active');
  });

  it('hides Payments out without payouts, and switches items with the template', async () => {
    renderAt(<NavHarness approved payoutEnabled={false} />);
    expect(screen.queryByText('Payments out')).toBeNull();
    expect(screen.getByRole('link', { name: 'Single Request to Pay' })).toBeInTheDocument();
    await userEvent.click(screen.getAllByLabelText('Template')[0]!);
    await userEvent.click(await screen.findByRole('option', { name: 'School', hidden: true }));
    expect(await screen.findByRole('link', { name: 'Request to Pay Single Student' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Single Request to Pay' })).toBeNull();
  });
});
