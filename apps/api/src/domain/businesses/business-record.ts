import { sql } from 'kysely';
import {
  ENTITY_TEMPLATE_NAMES,
  formatEin,
  maskNumber,
  type Business,
  type BusinessAddress,
  type BusinessState,
  type EntityType,
  type UserBusinessSummary,
} from '@tay/contract';
import type { Executor } from '../../db/executor';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { MemberRole } from '../../db/schema/business';
import { AppError } from '../../lib/app-error';
import { sandboxBankById } from '../directory/sandbox-banks';

/** Every column of `businesses` but the logo bytes, which only GET …/logo reads. */
export const BUSINESS_COLUMNS = [
  'id',
  'state',
  'payout_enabled',
  'entity_type',
  'business_name',
  'legal_name',
  'dba_name',
  'ein',
  'mcc',
  'corporate_structure',
  'non_profit_code',
  'phone',
  'email',
  'website',
  'address_line1',
  'address_line2',
  'address_city',
  'address_state',
  'address_postal_code',
  'address_country',
  'time_zone',
  'time_zone_chosen',
  'default_expiry_days',
  'reminder_schedule',
  'invoice_terms',
  'confirm_above_cents',
  'amount_ceiling_cents',
  'allow_negative_balance',
  'auto_reminders',
  'auto_expire',
  'logo_content_type',
  'logo_updated_at',
  'submitted_at',
  'approved_at',
  'state_reason',
  'created_at',
  'updated_at',
] as const;

export async function selectBusinessRow(executor: Executor, businessId: string) {
  return executor.selectFrom('businesses').select(BUSINESS_COLUMNS).where('id', '=', businessId).executeTakeFirst();
}
export type BusinessRow = NonNullable<Awaited<ReturnType<typeof selectBusinessRow>>>;

/** The business row, locked until the transaction ends: every change of a business goes through it. */
export async function findAndLockBusinessRow(trx: Transaction<DB>, businessId: string): Promise<BusinessRow | undefined> {
  return trx.selectFrom('businesses').select(BUSINESS_COLUMNS).where('id', '=', businessId).forUpdate().executeTakeFirst();
}

export async function lockBusinessRow(trx: Transaction<DB>, businessId: string): Promise<BusinessRow> {
  const row = await findAndLockBusinessRow(trx, businessId);
  if (!row) throw AppError.notFound('Business');
  return row;
}

/** `/api/businesses/<id>/logo?v=<ms>`: the version changes with every upload, so caches never serve an old logo. */
export function logoUrl(businessId: string, updatedAt: Date | null): string | null {
  return updatedAt ? `/api/businesses/${encodeURIComponent(businessId)}/logo?v=${updatedAt.getTime()}` : null;
}

function entitiesOf(entityType: EntityType) {
  return [{ entityType, entityTemplateName: ENTITY_TEMPLATE_NAMES[entityType] }];
}

function addressOf(row: BusinessRow): BusinessAddress | null {
  if (!row.address_line1 || !row.address_city || !row.address_state || !row.address_postal_code) return null;
  return {
    line1: row.address_line1,
    line2: row.address_line2,
    city: row.address_city,
    state: row.address_state as BusinessAddress['state'],
    postalCode: row.address_postal_code,
    country: 'US',
  };
}

/** The business's owners as stored, in their order (dates of birth as 'YYYY-MM-DD'). */
export function selectOwners(executor: Executor, businessId: string) {
  return executor
    .selectFrom('business_owners')
    .select([
      'id',
      'first_name',
      'last_name',
      'title',
      'ownership_percent',
      sql<string>`to_char(date_of_birth, 'YYYY-MM-DD')`.as('date_of_birth'),
      'ssn_last4',
      'email',
      'phone',
    ])
    .where('business_id', '=', businessId)
    .orderBy('position')
    .execute();
}

/** The business as the API returns it (docs/product.md §3): owners in their order, the settlement account masked. */
export async function loadBusiness(executor: Executor, businessId: string): Promise<Business> {
  const row = await selectBusinessRow(executor, businessId);
  if (!row) throw AppError.notFound('Business');
  const owners = await selectOwners(executor, businessId);
  const bank = await executor
    .selectFrom('bank_accounts')
    .select(['directory_id', 'bank_name', 'routing_number', 'account_number_last4', 'account_type', 'account_holder_name'])
    .where('business_id', '=', businessId)
    .where('is_settlement', '=', true)
    .executeTakeFirst();

  return {
    businessId: row.id,
    businessName: row.business_name,
    businessState: row.state,
    payoutEnabled: row.payout_enabled,
    entities: entitiesOf(row.entity_type),
    businessProfile: {
      ...(row.legal_name ? { legalName: row.legal_name } : {}),
      dbaName: row.dba_name,
      ein: row.ein ? formatEin(row.ein) : null,
      mcc: row.mcc,
      corporateStructure: row.corporate_structure,
      nonProfitCode: row.non_profit_code,
      phone: row.phone,
      email: row.email,
      website: row.website,
      logoUrl: logoUrl(row.id, row.logo_updated_at),
    },
    address: addressOf(row),
    owners: owners.map((o) => ({
      id: o.id,
      firstName: o.first_name,
      lastName: o.last_name,
      title: o.title,
      ownershipPercent: o.ownership_percent,
      dateOfBirth: o.date_of_birth,
      ssnLast4: o.ssn_last4,
      email: o.email,
      phone: o.phone,
    })),
    config: {
      timeZone: row.time_zone,
      defaultExpiryDays: row.default_expiry_days,
      reminderSchedule: row.reminder_schedule,
      invoiceTerms: row.invoice_terms,
      confirmAboveCents: Number(row.confirm_above_cents),
      amountCeilingCents: Number(row.amount_ceiling_cents),
      allowNegativeBalance: row.allow_negative_balance,
      timeZoneChosen: row.time_zone_chosen,
    },
    automations: { autoReminders: row.auto_reminders, autoExpire: row.auto_expire },
    bankAccount: bank
      ? {
          directoryId: bank.directory_id,
          accountNumber: maskNumber(bank.account_number_last4),
          routingNumber: maskNumber(bank.routing_number),
          bankName: bank.bank_name,
          institutionLogo: sandboxBankById(bank.directory_id)?.institutionLogo ?? null,
          accountType: bank.account_type,
          accountHolderName: bank.account_holder_name,
        }
      : null,
    submittedAt: row.submitted_at?.toISOString() ?? null,
    approvedAt: row.approved_at?.toISOString() ?? null,
    stateReason: row.state_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The short form in GET /api/user (docs/product.md §3). */
export function summaryOf(row: {
  id: string;
  business_name: string;
  state: BusinessState;
  payout_enabled: number;
  entity_type: EntityType;
  logo_updated_at: Date | null;
  role: MemberRole;
}): UserBusinessSummary {
  return {
    businessId: row.id,
    businessName: row.business_name,
    businessState: row.state,
    role: row.role,
    payoutEnabled: row.payout_enabled,
    entities: entitiesOf(row.entity_type),
    businessProfile: { logoUrl: logoUrl(row.id, row.logo_updated_at) },
  };
}

/** `Acme Ltd (biz_…)`: how operators and messages name a business. */
export function nameOf(row: Pick<BusinessRow, 'id' | 'business_name'>): string {
  return `${row.business_name} (${row.id})`;
}
