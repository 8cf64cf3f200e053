import { z } from 'zod';
import { boundedDay } from '../common/day-schemas';
import { MAX_AMOUNT_CENTS } from '../common/money';
import { BUSINESS_STATES, ENTITY_TYPES, MAX_REMINDER_OFFSET_DAYS } from './states';
import { US_STATES } from './us-states';

/** Domain: `Incomplete → Pending` (submit) `→ Approved | Disabled` (operations); `Approved ⇄ Disabled`. */
export const BusinessState = z.enum(BUSINESS_STATES);
export type BusinessState = z.infer<typeof BusinessState>;

/** The three templates (docs/product.md §1); the first entity's type decides the template. */
export const EntityType = z.enum(ENTITY_TYPES);
export type EntityType = z.infer<typeof EntityType>;

export const Entity = z.object({ entityType: EntityType, entityTemplateName: z.string() });
export type Entity = z.infer<typeof Entity>;

const trimmed = (max: number) => z.string().trim().max(max);
const optionalText = (max: number) => trimmed(max).nullable().optional();

/** Business profile (setup/profile). EIN as 9 digits, shown `12-3456789`. */
export const BusinessProfile = z.object({
  legalName: trimmed(200).min(1, 'Enter the legal name of the business.'),
  dbaName: optionalText(200),
  ein: z
    .string()
    .trim()
    .regex(/^\d{2}-?\d{7}$/, 'Enter the 9-digit EIN, like 12-3456789.')
    .nullable()
    .optional(),
  mcc: z
    .string()
    .regex(/^\d{4}$/, 'Choose a merchant category.')
    .nullable()
    .optional(),
  corporateStructure: z.string().max(50).nullable().optional(),
  nonProfitCode: z.string().max(20).nullable().optional(),
  phone: z.string().trim().max(30).nullable().optional(),
  email: z.email('Enter a valid e-mail address.').max(320).nullable().optional(),
  website: z.url('Enter a full web address, like https://example.com.').max(500).nullable().optional(),
});
export type BusinessProfile = z.infer<typeof BusinessProfile>;

export const BusinessAddress = z.object({
  line1: trimmed(200).min(1, 'Enter the street address.'),
  line2: optionalText(200),
  city: trimmed(100).min(1, 'Enter the city.'),
  state: z.enum(US_STATES, 'Choose a state.'),
  postalCode: z
    .string()
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, 'Enter a 5-digit ZIP code (or ZIP+4).'),
  country: z.literal('US'),
});
export type BusinessAddress = z.infer<typeof BusinessAddress>;

export const Owner = z.object({
  id: z.string().optional(),
  firstName: trimmed(100).min(1, 'Enter the first name.'),
  lastName: trimmed(100).min(1, 'Enter the last name.'),
  title: trimmed(100).min(1, 'Enter the title, like CEO or Owner.'),
  ownershipPercent: z.number().int('Use a whole percentage.').min(0).max(100),
  // Not in the future, and an adult's: the server checks both against its own clock.
  dateOfBirth: boundedDay('Date of birth', { invalid: 'Enter the date of birth.', upperBound: false }),
  ssnLast4: z.string().regex(/^\d{4}$/, 'Enter the last 4 digits of the SSN.'),
  email: z.email('Enter a valid e-mail address.').max(320),
  phone: z.string().trim().max(30).nullable().optional(),
});
export type Owner = z.infer<typeof Owner>;

/** Owners together hold at most 100 % of the business. */
export const Owners = z
  .array(Owner)
  .max(10)
  .refine((owners) => owners.reduce((sum, o) => sum + o.ownershipPercent, 0) <= 100, {
    message: 'Ownership adds up to more than 100 %.',
  });

const limitCents = (label: string) =>
  z
    .number({ error: `${label} must be an amount.` })
    .int(`${label} must be in whole cents.`)
    .min(100, `${label} must be at least $1.00.`)
    .max(MAX_AMOUNT_CENTS, `${label} can be at most $10,000,000.00.`);

export const BusinessConfig = z.object({
  timeZone: z.string().min(1).max(64),
  /** Days a request to pay stays payable unless its own expiry says otherwise. */
  defaultExpiryDays: z.number().int().min(1).max(365),
  /** Days relative to the due date when reminders go out (negative: before). */
  reminderSchedule: z.array(z.number().int().min(-MAX_REMINDER_OFFSET_DAYS).max(MAX_REMINDER_OFFSET_DAYS)).max(10),
  invoiceTerms: optionalText(2000),
  /** Above this a request, invoice or payout asks for its amount confirmed in words (default $10,000.00). */
  confirmAboveCents: limitCents('The confirmation limit').optional(),
  /** Above this a request, invoice or payout is refused (default and most: $10,000,000.00). */
  amountCeilingCents: limitCents('The highest amount').optional(),
  /**
   * Whether a refund the balance cannot cover goes through, taking the available balance below
   * zero (ADR 051); no payout is approved until it is back above zero. Off by default.
   */
  allowNegativeBalance: z.boolean().optional(),
});
export type BusinessConfig = z.infer<typeof BusinessConfig>;

export const BusinessAutomations = z.object({
  autoReminders: z.boolean(),
  autoExpire: z.boolean(),
});
export type BusinessAutomations = z.infer<typeof BusinessAutomations>;

/** Spec §3 bank display record; numbers are masked by the server. */
export const BankAccountDisplay = z.object({
  directoryId: z.string(),
  accountNumber: z.string(),
  routingNumber: z.string(),
  bankName: z.string(),
  institutionLogo: z.string().nullable(),
  accountType: z.enum(['checking', 'savings']),
  accountHolderName: z.string(),
});
export type BankAccountDisplay = z.infer<typeof BankAccountDisplay>;

export const Business = z.object({
  businessId: z.string(),
  businessName: z.string(),
  businessState: BusinessState,
  payoutEnabled: z.number().int(),
  entities: z.array(Entity),
  businessProfile: BusinessProfile.partial().extend({ logoUrl: z.string().nullable() }),
  address: BusinessAddress.nullable(),
  /** `dateOfBirth` and `ssnLast4` are null for a member or viewer: only owners and admins see them. */
  owners: z.array(Owner.extend({ id: z.string(), dateOfBirth: z.string().nullable(), ssnLast4: z.string().nullable() })),
  config: BusinessConfig.extend({
    confirmAboveCents: z.number().int(),
    amountCeilingCents: z.number().int(),
    allowNegativeBalance: z.boolean(),
    /**
     * Whether the business saved its configuration. Until it does, its time zone follows the
     * state of its address (`timeZoneForState`).
     */
    timeZoneChosen: z.boolean(),
  }),
  automations: BusinessAutomations,
  bankAccount: BankAccountDisplay.nullable(),
  submittedAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  /** Why operations disabled the business, when they did. */
  stateReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Business = z.infer<typeof Business>;

export const BusinessResponse = z.object({ status: z.literal('Success'), data: Business });

/** POST /api/businesses */
export const CreateBusinessBody = z.object({
  businessName: trimmed(200).min(1, 'Enter the name of your business.'),
  entityType: EntityType,
});
export type CreateBusinessBody = z.infer<typeof CreateBusinessBody>;

/** PATCH /api/businesses/:id/update — any subset of the setup sections. */
export const UpdateBusinessBody = z
  .object({
    businessName: trimmed(200).min(1).optional(),
    businessProfile: BusinessProfile.optional(),
    address: BusinessAddress.optional(),
    owners: Owners.optional(),
    config: BusinessConfig.optional(),
    automations: BusinessAutomations.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one section to update.' });
export type UpdateBusinessBody = z.infer<typeof UpdateBusinessBody>;

/** What still has to be filled in before submission; one entry per missing item. */
export const MissingItem = z.object({
  section: z.enum(['profile', 'owners', 'address', 'config', 'bankAccount']),
  field: z.string(),
  message: z.string(),
});
export type MissingItem = z.infer<typeof MissingItem>;

export const PrepareSubmitResponse = z.object({
  status: z.literal('Success'),
  data: z.object({ ready: z.boolean(), missing: z.array(MissingItem) }),
});

export const LogoUploadBody = z.object({
  /** A data URL of a PNG, JPEG, WebP or SVG image, at most 512 KB decoded. */
  dataUrl: z.string().max(800_000),
});

export const CodeLabel = z.object({ code: z.string(), label: z.string() });
export type CodeLabel = z.infer<typeof CodeLabel>;
export const CodeListResponse = z.object({ status: z.literal('Success'), data: z.array(CodeLabel) });

/** A bank of the sandbox bank directory (link-account). */
export const DirectoryBank = z.object({
  directoryId: z.string(),
  bankName: z.string(),
  routingNumber: z.string(),
  institutionLogo: z.string().nullable(),
});
export type DirectoryBank = z.infer<typeof DirectoryBank>;
export const DirectoryBanksResponse = z.object({ status: z.literal('Success'), data: z.array(DirectoryBank) });

/** add-bank-account: typed numbers; link-account: picked from the directory (routing number implied). */
export const AddBankAccountBody = z
  .object({
    directoryId: z.string().optional(),
    routingNumber: z
      .string()
      .regex(/^\d{9}$/, 'Enter the 9-digit routing number.')
      .optional(),
    accountNumber: z.string().regex(/^\d{4,17}$/, 'Enter the account number: 4 to 17 digits.'),
    confirmAccountNumber: z.string(),
    accountType: z.enum(['checking', 'savings']),
    accountHolderName: trimmed(200).min(1, 'Enter the name on the account.'),
  })
  .refine((b) => b.accountNumber === b.confirmAccountNumber, {
    message: 'The account numbers do not match.',
    path: ['confirmAccountNumber'],
  })
  .refine((b) => Boolean(b.directoryId) !== Boolean(b.routingNumber), {
    message: 'Choose a bank from the directory or enter a routing number.',
    path: ['routingNumber'],
  });
export type AddBankAccountBody = z.infer<typeof AddBankAccountBody>;

export const EnrollReminderBody = z.object({
  enrollNotificationViaEmail: z.boolean(),
  enrollNotificationViaMobileNumber: z.boolean(),
});

/** PATCH /api/user: completing these makes the profile `complete`. */
export const UpdateUserProfileBody = z.object({
  firstName: trimmed(100).min(1, 'Enter your first name.'),
  lastName: trimmed(100).min(1, 'Enter your last name.'),
  /** E.164, e.g. +14155550123 (the web app validates and formats; US by default). */
  mobileNumber: z.string().regex(/^\+[1-9]\d{7,14}$/, 'Enter a valid mobile number.'),
});
export type UpdateUserProfileBody = z.infer<typeof UpdateUserProfileBody>;

/** `:id` of every `/api/businesses/:id/…` route. */
export const BusinessIdParams = z.object({ id: z.string().min(1).max(64) });

/** GET /api/directory/banks?search= — case-insensitive, on the bank name or routing number. */
export const DirectoryBanksQuery = z.object({ search: z.string().trim().max(100).optional() });
