import type { Business, MissingItem } from '@tay/contract';

export interface SetupStep {
  key: MissingItem['section'] | 'automations';
  label: string;
  description: string;
  to: string;
  /** Optional steps never block submission. */
  optional?: boolean;
}

/** The setup pages in the order a business fills them in. */
export const SETUP_STEPS: SetupStep[] = [
  { key: 'profile', label: 'Business profile', description: 'Legal name, EIN, category, contact details and logo', to: '/business/setup/profile' },
  { key: 'owners', label: 'Owners', description: 'Everyone who owns 25 % or more, and who runs the business', to: '/business/owner' },
  { key: 'address', label: 'Address', description: 'Where the business is registered', to: '/business/setup/address' },
  { key: 'config', label: 'Configuration', description: 'Time zone, request expiry and reminder schedule', to: '/business/setup/config' },
  { key: 'automations', label: 'Automations', description: 'Automatic reminders and expiry', to: '/business/setup/automations', optional: true },
  { key: 'bankAccount', label: 'Settlement bank account', description: 'Where the money you collect is paid out', to: '/business/setup/payments' },
];

export function missingFor(step: SetupStep, missing: MissingItem[]): MissingItem[] {
  return missing.filter((m) => m.section === step.key);
}

/** Completed required steps, for the progress bar. */
export function progress(missing: MissingItem[]): { done: number; total: number } {
  const required = SETUP_STEPS.filter((s) => !s.optional);
  const done = required.filter((s) => missingFor(s, missing).length === 0).length;
  return { done, total: required.length };
}

export function stateLabel(business: Business): string {
  switch (business.businessState) {
    case 'Incomplete':
      return 'Setting up';
    case 'Pending':
      return 'Under review';
    case 'Approved':
      return 'Approved';
    case 'Disabled':
      return 'Disabled';
  }
}
