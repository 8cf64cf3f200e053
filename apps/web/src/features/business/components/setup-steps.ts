import { type Business, type MissingItem, paths, timeZoneForState, US_STATE_NAMES } from '@tay/contract';

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
  { key: 'profile', label: 'Business profile', description: 'Legal name, EIN, category, contact details and logo', to: paths.business.setupProfile },
  { key: 'owners', label: 'Owners', description: 'Everyone who owns 25 % or more, and who runs the business', to: paths.business.owners },
  { key: 'address', label: 'Address', description: 'Where the business is registered', to: paths.business.setupAddress },
  { key: 'config', label: 'Configuration', description: 'Time zone, request expiry and reminder schedule', to: paths.business.setupConfig },
  { key: 'automations', label: 'Automations', description: 'Automatic reminders and expiry', to: paths.business.setupAutomations, optional: true },
  { key: 'bankAccount', label: 'Settlement bank account', description: 'Where the money you collect is paid out', to: paths.business.setupPayments },
];

export function missingFor(step: SetupStep, missing: MissingItem[]): MissingItem[] {
  return missing.filter((m) => m.section === step.key);
}

/**
 * The time zone the configuration page offers until the business saves its configuration: the
 * one of its address's state, else the stored default. Null once the business chose one.
 */
export function suggestedTimeZone(business: Business): { timeZone: string; from: string | null } | null {
  if (business.config.timeZoneChosen) return null;
  const state = business.address?.state;
  const fromAddress = timeZoneForState(state);
  return fromAddress && state ? { timeZone: fromAddress, from: US_STATE_NAMES[state] } : { timeZone: business.config.timeZone, from: null };
}

/**
 * What is left to do on a step, in words: what submission still needs (the API's missing items)
 * and, for the configuration, a time zone nobody has looked at yet. Automations start with
 * working defaults and leave nothing to do.
 */
export function stepTodo(step: SetupStep, missing: MissingItem[], business: Business): string[] {
  const todo = missingFor(step, missing).map((m) => m.message);
  if (step.key === 'config' && todo.length === 0) {
    const suggested = suggestedTimeZone(business);
    if (suggested) {
      todo.push(
        suggested.from
          ? `Confirm the time zone: ${suggested.timeZone}, from your address in ${suggested.from}.`
          : `Confirm the time zone the business works in (${suggested.timeZone} for now).`,
      );
    }
  }
  return todo;
}

/** Completed steps of all the cards the overview shows, for the progress bar. */
export function progress(missing: MissingItem[], business: Business): { done: number; total: number } {
  const done = SETUP_STEPS.filter((s) => stepTodo(s, missing, business).length === 0).length;
  return { done, total: SETUP_STEPS.length };
}

/**
 * Where to go after saving the step `current`: the next step in order that still has something
 * to do, coming round to the earlier ones; null when every step is done (the overview then
 * offers to submit).
 */
export function nextStep(current: SetupStep['key'], missing: MissingItem[], business: Business): SetupStep | null {
  const at = SETUP_STEPS.findIndex((s) => s.key === current);
  const order = [...SETUP_STEPS.slice(at + 1), ...SETUP_STEPS.slice(0, at + 1)];
  return order.find((s) => s.key !== current && stepTodo(s, missing, business).length > 0) ?? null;
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
