/**
 * The businesses' plain rules and values, without zod: the portal's frame and its first pages read
 * them on every visit, while the schemas built on them (`schemas.ts`) load with the forms that need them.
 */

/** Domain: `Incomplete → Pending` (submit) `→ Approved | Disabled` (operations); `Approved ⇄ Disabled`. */
export const BUSINESS_STATES = ['Incomplete', 'Pending', 'Approved', 'Disabled'] as const;
type BusinessState = (typeof BUSINESS_STATES)[number];

/** The three templates (docs/product.md §1); the first entity's type decides the template. */
export const ENTITY_TYPES = ['standard', 'student', 'healthCare'] as const;
type EntityType = (typeof ENTITY_TYPES)[number];
export const ENTITY_TEMPLATE_NAMES: Record<EntityType, string> = {
  standard: 'Standard',
  student: 'School',
  healthCare: 'Healthcare',
};

export const REMINDER_OFFSETS = [-7, -3, -1, 0, 1, 3, 7] as const;
/** How far from the due date a reminder step may be, either way, in days. */
export const MAX_REMINDER_OFFSET_DAYS = 30;

/**
 * The business state machine (docs/product.md §4): the owner submits (`Incomplete → Pending`), operations
 * approve or decline (`Pending → Approved | Disabled`) and may disable and re-enable an approved
 * business (`Approved ⇄ Disabled`). Nothing else moves; the API refuses every other change.
 */
export const BUSINESS_TRANSITIONS: Readonly<Record<BusinessState, readonly BusinessState[]>> = {
  Incomplete: ['Pending'],
  Pending: ['Approved', 'Disabled'],
  Approved: ['Disabled'],
  Disabled: ['Approved'],
};

export function canTransition(from: BusinessState, to: BusinessState): boolean {
  return BUSINESS_TRANSITIONS[from].includes(to);
}

/**
 * States in which the owner may change the business's details. A Pending business is under
 * review, so what operations approve is what was submitted; a Disabled one is frozen.
 */
export const BUSINESS_EDITABLE_STATES: readonly BusinessState[] = ['Incomplete', 'Approved'];

export function isBusinessEditable(state: BusinessState): boolean {
  return BUSINESS_EDITABLE_STATES.includes(state);
}

/** Corporate structures (codes of GET /api/corpStruct) that take a non-profit code. */
export const NON_PROFIT_CORPORATE_STRUCTURES: readonly string[] = ['non_profit'];

export function isNonProfitStructure(code: string | null | undefined): boolean {
  return code != null && NON_PROFIT_CORPORATE_STRUCTURES.includes(code);
}

/** `directoryId` of a settlement account whose routing number is not in the bank directory. */
export const MANUAL_BANK_DIRECTORY_ID = 'manual';

export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];
/** Largest logo accepted, decoded. */
export const MAX_LOGO_BYTES = 512 * 1024;

/** `12-3456789`: how an EIN (stored as 9 digits) is shown and returned. */
export function formatEin(digits: string): string {
  return /^\d{9}$/.test(digits) ? `${digits.slice(0, 2)}-${digits.slice(2)}` : digits;
}
