import { describe, expect, it } from 'vitest';
import { paths } from '@tay/contract';
import { activeSection, likelyNextPage, navigationSections } from './navigation';

describe('navigation (docs/product.md §2)', () => {
  it('has the spec labels for each template', () => {
    const labels = (t: Parameters<typeof navigationSections>[0]) => navigationSections(t, false)[0]!.items.map((i) => i.label);
    expect(labels('standard')).toEqual([
      'Transaction History',
      'Single Request to Pay',
      'Bulk Request to Pay',
      'Manage Invoices',
      'Manage Payers',
      'Manage QR Codes',
      // Beyond the spec's items, after them.
      'Refunds',
      'Disputes',
    ]);
    expect(labels('student')).toEqual([
      'Transactions History',
      'Request to Pay Single Student',
      'Request to Pay Multiple Students',
      'Manage Students',
      'Manage Programs',
      'Manage Billing Cycles',
      'Program Billing and Payment',
      'Manage Payers',
      'Manage QRCode',
      'Refunds',
      'Disputes',
    ]);
    expect(labels('healthCare')).toEqual([
      'Transactions History',
      'Request to Pay Single',
      'Request to Pay Multiple',
      'Manage Clients',
      'Manage QRCode',
      'Refunds',
      'Disputes',
    ]);
  });

  it('leads each student-model item to its page: the billing history, the single and bulk student requests, students, programs, cycles, program billing', () => {
    const items = navigationSections('student', false)[0]!.items;
    expect(Object.fromEntries(items.map((i) => [i.label, i.to]))).toEqual({
      'Transactions History': '/business/entity/billing/transactions',
      'Request to Pay Single Student': '/business/entity/students/payment/request?entity=true',
      'Request to Pay Multiple Students': '/business/entity/billing/bulkstudents',
      'Manage Students': '/business/entity/students',
      'Manage Programs': '/business/entity/program',
      'Manage Billing Cycles': '/business/entity/billingcycle',
      'Program Billing and Payment': '/business/entity/program/billing',
      'Manage Payers': '/business/payment/payers',
      'Manage QRCode': '/business/payment/qrcode',
      Refunds: '/business/payment/refunds',
      Disputes: '/business/payment/disputes',
    });
  });

  it('opens the invoices from Manage Invoices, after Bulk Request to Pay', () => {
    const items = navigationSections('standard', false)[0]!.items;
    const index = items.findIndex((i) => i.label === 'Manage Invoices');
    expect(items[index - 1]!.label).toBe('Bulk Request to Pay');
    expect(items[index]).toEqual({ label: 'Manage Invoices', to: '/business/payment/invoices', feature: 'invoices', ownsSubPaths: true });
  });

  it.each(['standard', 'student', 'healthCare'] as const)('opens the QR codes from the %s template’s QR item, current on each of their pages', (template) => {
    const item = navigationSections(template, false)[0]!.items.find((i) => i.feature === 'qrCodePayments');
    expect(item).toEqual({
      label: template === 'standard' ? 'Manage QR Codes' : 'Manage QRCode',
      to: '/business/payment/qrcode',
      feature: 'qrCodePayments',
      ownsSubPaths: true,
    });
  });

  it('shows Payments out only with payouts enabled', () => {
    expect(navigationSections('standard', false).map((s) => s.label)).toEqual(['Payments In', 'Analytics', 'Set-up and Administration']);
    const withPayouts = navigationSections('standard', true);
    expect(withPayouts.map((s) => s.label)).toEqual(['Payments In', 'Payments out', 'Analytics', 'Set-up and Administration']);
    expect(withPayouts[1]!.items.map((i) => i.label)).toEqual([
      'Transaction Dashboard',
      'Send a Payment - Single Receiver',
      'Send a Payment - Multiple Receivers',
      'Manage Receivers',
      'Manage Events',
    ]);
    expect(withPayouts[2]!.items.map((i) => i.label)).toEqual(['Daily Billing Report', 'Monthly Billing Report', 'Custom Billing Report']);
    expect(withPayouts[3]!.items.map((i) => i.label)).toEqual([
      'Business Profile',
      'Configurations (business config and scheduling)',
      '3rd Party Integrations',
      // After the spec's items: the people and the record of every change.
      'Team',
      'Audit log',
    ]);
  });

  it.each([
    ['/business/payment', 'payments'],
    ['/business/payment/payers/add', 'payments'],
    ['/business/payment/invoices/list', 'payments'],
    ['/business/entity/students', 'payments'],
    ['/business/entity/billing/transactions', 'payments'],
    ['/business/billing/students', 'payments'],
    ['/business/payouts/receivers', 'payouts'],
    ['/business/setup/config', 'setup'],
    ['/business/analytics/billing/daily', 'analytics'],
    ['/business/home', null],
    ['/business/user/profile', null],
  ])('active section of %s is %s', (path, section) => {
    expect(activeSection(path)).toBe(section);
  });
});

describe('the page a person most likely opens next (preloaded while the page is still)', () => {
  const standard = navigationSections('standard', true);

  it('in a section: the item after the current one, also from a page the item owns', () => {
    expect(likelyNextPage(standard, paths.payments.history)).toBe(paths.payments.request);
    expect(likelyNextPage(standard, paths.payments.request)).toBe(paths.payments.bulkRtp);
    expect(likelyNextPage(standard, `${paths.payments.invoices}/new`)).toBe(paths.payers.list);
  });

  it('on the last item: the section’s first', () => {
    expect(likelyNextPage(standard, paths.business.audit)).toBe(paths.business.setupProfile);
  });

  it('outside the sections (home): the first page of the first section', () => {
    expect(likelyNextPage(standard, paths.business.home)).toBe(paths.payments.history);
  });
});
