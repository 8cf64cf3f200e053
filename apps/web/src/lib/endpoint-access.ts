import {
  BUSINESS_RULE_CODES,
  ErrorCode,
  isBusinessEditable,
  roleAllows,
  roleRefusal,
  type Access,
  type BusinessRule,
  type BusinessState,
  type EndpointSpec,
  type UserBusinessSummary,
} from '@tay/contract';
import { useSession } from './session';

/** Whether the person may call an endpoint now, and if not, why: a title and the reason, with the code the API would answer. */
export type EndpointAccess = { allowed: true } | { allowed: false; title: string; reason: string; code: string };

/** What `endpointAccess` reads of an endpoint: its entry in the endpoint table. */
export type AccessEntry = Pick<EndpointSpec, 'tag' | 'access' | 'rules' | 'notApproved'>;

/**
 * The page's own words for an area, where the API has none: the title of the wait for approval
 * ("Requests open once…"), and what a viewer may still do there. The reasons themselves are the
 * endpoint's (`notApproved`), the ones the API answers with. Keyed by the endpoint's tag; the
 * areas that make requests to pay (student billing, statements, bulk files) share the requests'
 * words, and those of Payments out share the payouts'.
 */
const requests = {
  name: 'Requests',
  viewOnly: 'Your role in this business is view only: you can read and export requests, not create or change them.',
};
const payouts = { name: 'Payouts', viewOnly: 'Your role in this business is view only: you can read and export payouts, not create or change them.' };
const AREA_WORDS: Record<string, { name: string; viewOnly: string }> = {
  'payment-requests': requests,
  'Student billing': requests,
  'Healthcare statements': requests,
  batches: requests,
  invoices: {
    name: 'Invoices',
    viewOnly: 'Your role in this business is view only: you can read, download and export invoices, not create or change them.',
  },
  payers: { name: 'Payers', viewOnly: 'Your role in this business is view only: you can read and export payers, not add or change them.' },
  'QR codes': {
    name: 'QR codes',
    viewOnly: 'Your role in this business is view only: you can read, download and export QR codes, not create or change them.',
  },
  Payouts: payouts,
  Receivers: payouts,
  Events: payouts,
  payouts,
  Programs: {
    name: 'Programs',
    viewOnly: 'Your role in this business is view only: you can read and export programs and their students, not change them.',
  },
  Students: { name: 'Students', viewOnly: 'Your role in this business is view only: you can read and export students, not add or change them.' },
  Patients: { name: 'Patients', viewOnly: 'Your role in this business is view only: you can read and export patients, not add or change them.' },
  'Billing cycles': {
    name: 'Billing cycles',
    viewOnly: 'Your role in this business is view only: you can read and export billing cycles and their runs, not change or run them.',
  },
};

const refused = (title: string, reason: string, code: string): EndpointAccess => ({ allowed: false, title, reason, code });

/**
 * One state rule of the table, as the API checks it (`apps/api/src/http/mount.ts`, `ruleRefusal`):
 * a refusal, or null when the business keeps it. The payouts and template rules decide which pages
 * the navigation offers (`components/layout/navigation.ts`: Payments out only once payouts are
 * enabled, each template's own items), so a page reached from it keeps them; they are not asked here.
 */
function ruleRefusal(rule: BusinessRule, endpoint: AccessEntry, business: Pick<UserBusinessSummary, 'businessState'>): EndpointAccess | null {
  const { code } = BUSINESS_RULE_CODES[rule];
  const state = business.businessState as BusinessState;
  switch (rule) {
    case 'approved': {
      if (state === 'Approved') return null;
      const name = AREA_WORDS[endpoint.tag]?.name;
      if (state === 'Disabled') {
        return refused(
          'Your business is disabled',
          endpoint.notApproved?.disabled ?? 'Your business is disabled, so this cannot be done. Contact Tay support to enable it again.',
          code,
        );
      }
      return refused(
        name ? `${name} open once your business is approved` : 'This opens once your business is approved',
        endpoint.notApproved?.pending ?? 'This can be done once your business is approved. Finish and submit your business setup first.',
        code,
      );
    }
    case 'editable':
      if (isBusinessEditable(state)) return null;
      return refused(
        'These details are locked',
        state === 'Pending'
          ? 'Your business is under review; you can change its details again once the review is done.'
          : 'Your business is disabled; contact Tay support to change its details.',
        code,
      );
    case 'payoutsEnabled':
    case 'studentTemplate':
    case 'healthCareTemplate':
      return null;
  }
}

/**
 * Whether this member may call the endpoint, and if not, why — asked of the endpoint table as the
 * API's mount asks it: the role against the endpoint's `access` (`roleAllows`, ROLE_ACCESS), then
 * each of its state `rules` in turn, so the page says before a click what the server would answer
 * after it, with the endpoint's own words.
 */
export function endpointAccess(endpoint: AccessEntry, business: Pick<UserBusinessSummary, 'businessState' | 'role'> | undefined): EndpointAccess {
  if (!business) return refused('No business yet', 'Create your business first.', ErrorCode.NotFound);
  if (!roleAllows(business.role, endpoint.access)) {
    const viewOnly = endpoint.access === 'business:operate' ? AREA_WORDS[endpoint.tag]?.viewOnly : undefined;
    return refused('View only', viewOnly ?? roleRefusal(endpoint.access), ErrorCode.Forbidden);
  }
  for (const rule of endpoint.rules ?? []) {
    const refusal = ruleRefusal(rule, endpoint, business);
    if (refusal) return refusal;
  }
  return { allowed: true };
}

/** `endpointAccess` for the person's selected business: what they may do with this endpoint, and why not. */
export function useEndpointAccess(endpoint: AccessEntry): EndpointAccess {
  return endpointAccess(endpoint, useSession().business);
}

/**
 * Whether the selected business's role holds an access level, whatever the business's state: the
 * role half of the table, for what is not one endpoint's call (who may approve money, by
 * MONEY_RULES; the setup pages, which read the business's own state).
 */
export function useRoleAllows(access: Access): boolean {
  const business = useSession().business;
  return business ? roleAllows(business.role, access) : false;
}
