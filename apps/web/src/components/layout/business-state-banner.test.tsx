import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { UserBusinessSummary } from '@tay/contract';
import { BusinessStateBanner } from './business-state-banner';

function business(businessState: UserBusinessSummary['businessState']): UserBusinessSummary {
  return {
    businessId: 'biz_1',
    businessName: 'Harbor Music',
    businessState,
    role: 'owner',
    payoutEnabled: 0,
    entities: [{ entityType: 'standard', entityTemplateName: 'Standard' }],
    businessProfile: { logoUrl: null },
  };
}

function renderAt(path: string, state: UserBusinessSummary['businessState']) {
  return render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={[path]}>
        <BusinessStateBanner business={business(state)} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('the business state banner', () => {
  it.each(['/business/setup', '/business/setup/address', '/business/owner', '/business/setup/payment/link-account'])(
    'asks to finish setting up on the home page, and does not repeat it on %s',
    (path) => {
      const home = renderAt('/business/home', 'Incomplete');
      expect(screen.getByText('Finish setting up your business')).toBeInTheDocument();
      home.unmount();
      renderAt(path, 'Incomplete');
      expect(screen.queryByText('Finish setting up your business')).toBeNull();
    },
  );
});
