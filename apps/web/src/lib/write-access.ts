import { roleAllows, type Access, type UserBusinessSummary } from '@tay/contract';
import { useSession } from './session';

/** What a page changes: the business's requests to pay, its invoices, its payers, or its QR codes. */
export type WriteArea = 'requests' | 'invoices' | 'payers' | 'qrCodes' | 'payouts' | 'programs' | 'students' | 'billingCycles' | 'patients';

export type WriteAccess = { allowed: true } | { allowed: false; title: string; reason: string };

/** The words for each area: what a viewer may still do, and why a business not yet approved may not. */
const WORDS: Record<WriteArea, { viewOnly: string; disabled: string; waitTitle: string; wait: string }> = {
  requests: {
    viewOnly: 'Your role in this business is view only: you can read and export requests, not create or change them.',
    disabled: 'This business is disabled, so it cannot request payments. Contact Tay support.',
    waitTitle: 'Requests open once your business is approved',
    wait: 'Requests to pay can be created and sent once your business is approved.',
  },
  // The API's own words (packages/contract/src/invoices/endpoints.ts).
  invoices: {
    viewOnly: 'Your role in this business is view only: you can read, download and export invoices, not create or change them.',
    disabled: 'This business is disabled, so it cannot send invoices. Contact Tay support.',
    waitTitle: 'Invoices open once your business is approved',
    wait: 'Invoices can be created and sent once your business is approved.',
  },
  payers: {
    viewOnly: 'Your role in this business is view only: you can read and export payers, not add or change them.',
    disabled: 'Your business is disabled, so its payers cannot be added or changed. Contact Tay support to enable it again.',
    waitTitle: 'Payers open once your business is approved',
    wait: 'Payers can be added or changed once your business is approved. Finish and submit your business setup first.',
  },
  // The API's own words (packages/contract/src/qr-codes/endpoints.ts).
  qrCodes: {
    viewOnly: 'Your role in this business is view only: you can read, download and export QR codes, not create or change them.',
    disabled: 'This business is disabled, so it cannot take payments through QR codes. Contact Tay support.',
    waitTitle: 'QR codes open once your business is approved',
    wait: 'QR codes can be created once your business is approved.',
  },
  payouts: {
    viewOnly: 'Your role in this business is view only: you can read and export payouts, not create or change them.',
    disabled: 'This business is disabled, so it cannot send payouts. Contact Tay support.',
    waitTitle: 'Payouts open once your business is approved',
    wait: 'Payouts can be made once your business is approved and Tay has enabled payouts for it.',
  },
  // The API's own words (packages/contract/src/students/programs.ts).
  programs: {
    viewOnly: 'Your role in this business is view only: you can read and export programs and their students, not change them.',
    disabled: 'Your business is disabled, so its programs and enrollments cannot be changed. Contact Tay support to enable it again.',
    waitTitle: 'Programs open once your business is approved',
    wait: 'Programs and enrollments can be changed once your business is approved. Finish and submit your business setup first.',
  },
  // The API's own words (packages/contract/src/students/students.ts).
  students: {
    viewOnly: 'Your role in this business is view only: you can read and export students, not add or change them.',
    disabled: 'This business is disabled, so its students cannot be changed. Contact Tay support.',
    waitTitle: 'Students open once your business is approved',
    wait: 'Students can be added once your business is approved.',
  },
  // The API's own words (packages/contract/src/patients/patients.ts).
  patients: {
    viewOnly: 'Your role in this business is view only: you can read and export patients, not add or change them.',
    disabled: 'This business is disabled, so its patients cannot be changed. Contact Tay support.',
    waitTitle: 'Patients open once your business is approved',
    wait: 'Patients can be added once your business is approved.',
  },
  // The API's own words (packages/contract/src/students/billing-cycles.ts).
  billingCycles: {
    viewOnly: 'Your role in this business is view only: you can read and export billing cycles and their runs, not change or run them.',
    disabled: 'This business is disabled, so it cannot bill students. Contact Tay support.',
    waitTitle: 'Billing cycles open once your business is approved',
    wait: 'Billing cycles can be set up once your business is approved.',
  },
};

/**
 * Whether the person may change the business's requests, invoices, payers or QR codes, and if not, why —
 * the API's own rule (an owner, admin or member of an Approved business) and its words, so the
 * page says before a click what the server would answer after it.
 */
export function writeAccess(business: Pick<UserBusinessSummary, 'businessState' | 'role'> | undefined, area: WriteArea): WriteAccess {
  const words = WORDS[area];
  if (!business) {
    return { allowed: false, title: 'No business yet', reason: 'Create your business first.' };
  }
  // The permission table the API enforces (packages/contract/src/common/endpoint.ts).
  if (!roleAllows(business.role, 'business:operate')) return { allowed: false, title: 'View only', reason: words.viewOnly };
  if (business.businessState === 'Approved') return { allowed: true };
  if (business.businessState === 'Disabled') return { allowed: false, title: 'Your business is disabled', reason: words.disabled };
  return { allowed: false, title: words.waitTitle, reason: words.wait };
}

/** `writeAccess` for the person's selected business. */
export function useWriteAccess(area: WriteArea): WriteAccess {
  return writeAccess(useSession().business, area);
}

/** Whether the selected business's role allows an access level (the Team and Audit pages, the bank account). */
export function useRoleAllows(access: Access): boolean {
  const business = useSession().business;
  return business ? roleAllows(business.role, access) : false;
}
