import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { IntegrationProvider } from '@tay/contract';
import type { DB } from '../db/schema';
import type { StandInAccountingCompaniesTable, StandInAccountingRecordsTable } from '../db/schema/accounting-standins';

/**
 * The state both accounting stand-ins keep (migration 0044): companies and their test switches,
 * authorization codes, tokens and records. Codes and tokens are stored as SHA-256 hashes only.
 * Nothing here holds a transaction across a provider call: the clients run on this same server.
 */

export type StandInDb = Kysely<DB>;
export const standInDb = (db: Kysely<DB>): StandInDb => db;

export type Company = Selectable<StandInAccountingCompaniesTable>;
export type RecordRow = Selectable<StandInAccountingRecordsTable>;
export type RecordType = RecordRow['type'];

export const CODE_TTL_SECONDS = 5 * 60;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = (bytes = 32) => randomBytes(bytes).toString('base64url');

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The name as the company is known by: outer spaces aside, case aside. */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** A realm id like QuickBooks' (digits) or an account id like FreshBooks' (six letters and digits). */
function newAccountId(provider: IntegrationProvider): string {
  if (provider === 'quickbooks') return `9341${Array.from({ length: 12 }, () => randomInt(10)).join('')}`;
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: 6 }, () => letters[randomInt(letters.length)]).join('');
}

/** Makes the company of that name, or finds it: the same name is the same company, with its records. */
export async function findOrCreateCompany(db: StandInDb, provider: IntegrationProvider, name: string): Promise<Company> {
  const key = nameKey(name);
  await db
    .insertInto('standin_accounting_companies')
    .values({ id: newAccountId(provider), provider, name: name.trim().replace(/\s+/g, ' '), name_key: key, fail_record_match: null, fail_record_message: null })
    .onConflict((oc) => oc.columns(['provider', 'name_key']).doNothing())
    .execute();
  return db.selectFrom('standin_accounting_companies').selectAll().where('provider', '=', provider).where('name_key', '=', key).executeTakeFirstOrThrow();
}

export function findCompany(db: StandInDb, provider: IntegrationProvider, id: string): Promise<Company | undefined> {
  return db.selectFrom('standin_accounting_companies').selectAll().where('provider', '=', provider).where('id', '=', id).executeTakeFirst();
}

export interface Switches {
  refuseTokens?: boolean | undefined;
  rateLimit?: { count: number; retryAfterSeconds: number } | null | undefined;
  failRecord?: { match: string; message: string } | null | undefined;
  expireCodes?: boolean | undefined;
}

/** Sets the switches given (an absent one stays as it was; `null` turns one off). */
export async function setSwitches(db: StandInDb, provider: IntegrationProvider, id: string, switches: Switches): Promise<Company | undefined> {
  return db
    .updateTable('standin_accounting_companies')
    .set({
      ...(switches.refuseTokens === undefined ? {} : { refuse_tokens: switches.refuseTokens }),
      ...(switches.expireCodes === undefined ? {} : { expire_codes: switches.expireCodes }),
      ...(switches.rateLimit === undefined
        ? {}
        : { rate_limited_calls: switches.rateLimit?.count ?? 0, retry_after_seconds: switches.rateLimit?.retryAfterSeconds ?? 30 }),
      ...(switches.failRecord === undefined
        ? {}
        : { fail_record_match: switches.failRecord?.match ?? null, fail_record_message: switches.failRecord?.message ?? null }),
    })
    .where('provider', '=', provider)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function switchesOf(company: Company) {
  return {
    accountId: company.id,
    name: company.name,
    refuseTokens: company.refuse_tokens,
    rateLimit: company.rate_limited_calls > 0 ? { count: company.rate_limited_calls, retryAfterSeconds: company.retry_after_seconds } : null,
    failRecord: company.fail_record_match !== null ? { match: company.fail_record_match, message: company.fail_record_message ?? '' } : null,
    expireCodes: company.expire_codes,
  };
}

export async function issueCode(
  db: StandInDb,
  input: { companyId: string; clientId: string; redirectUri: string; codeChallenge: string | null },
): Promise<string> {
  const code = newSecret();
  await db
    .insertInto('standin_accounting_codes')
    .values({
      code_hash: hashSecret(code),
      company_id: input.companyId,
      grant_id: newSecret(12),
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      code_challenge: input.codeChallenge,
      expires_at: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
      used_at: null,
    })
    .execute();
  return code;
}

export type Refusal = { error: 'invalid_grant' | 'invalid_request'; description: string };

/** Spends a code (once): its client, its redirect_uri and, when a challenge was sent, the PKCE verifier must match. */
export async function redeemCode(
  db: StandInDb,
  input: { code: string; clientId: string; redirectUri: string; codeVerifier: string | null },
): Promise<{ companyId: string; grantId: string } | Refusal> {
  // Marked used whatever follows: a code is tried once, right or wrong.
  const row = await db
    .updateTable('standin_accounting_codes')
    .set({ used_at: new Date() })
    .where('code_hash', '=', hashSecret(input.code))
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) return { error: 'invalid_grant', description: 'The authorization code is unknown or was already used.' };
  const company = await db.selectFrom('standin_accounting_companies').select(['expire_codes']).where('id', '=', row.company_id).executeTakeFirst();
  if (row.expires_at.getTime() < Date.now() || company?.expire_codes) return { error: 'invalid_grant', description: 'The authorization code has expired.' };
  if (row.client_id !== input.clientId) return { error: 'invalid_grant', description: 'The authorization code was issued to another client.' };
  if (row.redirect_uri !== input.redirectUri)
    return { error: 'invalid_grant', description: 'The redirect_uri does not match the one of the authorization request.' };
  if (row.code_challenge !== null) {
    if (!input.codeVerifier) return { error: 'invalid_request', description: 'code_verifier is required: the authorization request carried a code_challenge.' };
    const challenge = createHash('sha256').update(input.codeVerifier).digest('base64url');
    if (!sameSecret(challenge, row.code_challenge)) return { error: 'invalid_grant', description: 'The code_verifier does not match the code_challenge.' };
  }
  return { companyId: row.company_id, grantId: row.grant_id };
}

export interface Lifetimes {
  accessSeconds: number;
  /** Null: the refresh token lasts until it is used. */
  refreshSeconds: number | null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number | null;
}

export async function issueTokens(db: StandInDb, companyId: string, grantId: string, lifetimes: Lifetimes): Promise<IssuedTokens> {
  const accessToken = newSecret();
  const refreshToken = newSecret();
  const now = Date.now();
  await db
    .insertInto('standin_accounting_tokens')
    .values([
      {
        token_hash: hashSecret(accessToken),
        kind: 'access',
        company_id: companyId,
        grant_id: grantId,
        expires_at: new Date(now + lifetimes.accessSeconds * 1000),
        revoked_at: null,
      },
      {
        token_hash: hashSecret(refreshToken),
        kind: 'refresh',
        company_id: companyId,
        grant_id: grantId,
        expires_at: lifetimes.refreshSeconds === null ? null : new Date(now + lifetimes.refreshSeconds * 1000),
        revoked_at: null,
      },
    ])
    .execute();
  return { accessToken, refreshToken, expiresIn: lifetimes.accessSeconds, refreshExpiresIn: lifetimes.refreshSeconds };
}

/**
 * A refresh spends the refresh token and gives a new pair (rotation). A company whose tokens are
 * refused answers `invalid_grant` without spending it, so turning the switch off lets it refresh again.
 */
export async function refreshTokens(db: StandInDb, provider: IntegrationProvider, refreshToken: string, lifetimes: Lifetimes): Promise<IssuedTokens | Refusal> {
  const refused: Refusal = { error: 'invalid_grant', description: 'The refresh token is invalid, expired or revoked.' };
  const hash = hashSecret(refreshToken);
  const found = await db
    .selectFrom('standin_accounting_tokens')
    .select(['company_id'])
    .where('token_hash', '=', hash)
    .where('kind', '=', 'refresh')
    .executeTakeFirst();
  const company = found ? await findCompany(db, provider, found.company_id) : undefined;
  if (!company || company.refuse_tokens) return refused;
  const row = await db
    .updateTable('standin_accounting_tokens')
    .set({ revoked_at: new Date() })
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row || (row.expires_at && row.expires_at.getTime() < Date.now())) return refused;
  return issueTokens(db, row.company_id, row.grant_id, lifetimes);
}

/** Revokes the token's whole grant; an unknown token is not an error (it may be revoked already). */
export async function revokeToken(db: StandInDb, token: string): Promise<void> {
  const row = await db.selectFrom('standin_accounting_tokens').select(['grant_id']).where('token_hash', '=', hashSecret(token)).executeTakeFirst();
  if (!row) return;
  await db
    .updateTable('standin_accounting_tokens')
    .set({ revoked_at: new Date() })
    .where('grant_id', '=', row.grant_id)
    .where('revoked_at', 'is', null)
    .execute();
}

export type ApiAccess = { ok: true; company: Company } | { ok: false; status: 401; reason: string } | { ok: false; status: 429; retryAfterSeconds: number };

/**
 * An API call's bearer token: live, of this provider, for the path's company; then the company's
 * switches (tokens refused, calls rate limited: each limited call uses one up).
 */
export async function authorizeApiCall(
  db: StandInDb,
  provider: IntegrationProvider,
  authorization: string | undefined,
  accountId: string | null,
): Promise<ApiAccess> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return { ok: false, status: 401, reason: 'No bearer token was sent.' };
  const token = await db
    .selectFrom('standin_accounting_tokens')
    .select(['company_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hashSecret(match[1]!))
    .where('kind', '=', 'access')
    .executeTakeFirst();
  if (!token || token.revoked_at || (token.expires_at && token.expires_at.getTime() < Date.now())) {
    return { ok: false, status: 401, reason: 'The access token is invalid, expired or revoked.' };
  }
  if (accountId !== null && token.company_id !== accountId) return { ok: false, status: 401, reason: 'The access token is not for this company.' };
  const company = await findCompany(db, provider, token.company_id);
  if (!company || company.refuse_tokens) return { ok: false, status: 401, reason: 'The access token is invalid, expired or revoked.' };
  const limited = await db
    .updateTable('standin_accounting_companies')
    .set({ rate_limited_calls: sql<number>`rate_limited_calls - 1` })
    .where('id', '=', company.id)
    .where('rate_limited_calls', '>', 0)
    .returning(['retry_after_seconds'])
    .executeTakeFirst();
  if (limited) return { ok: false, status: 429, retryAfterSeconds: limited.retry_after_seconds };
  return { ok: true, company };
}

/** The message of the company's failRecord switch when this create or update's body contains its text. */
export function failRecordMessage(company: Company, body: unknown): string | null {
  if (company.fail_record_match === null) return null;
  return JSON.stringify(body ?? null).includes(company.fail_record_match) ? (company.fail_record_message ?? '') : null;
}

/** The company's next record id: both providers number records per company. */
export async function nextRecordId(db: StandInDb, companyId: string): Promise<string> {
  const row = await db
    .updateTable('standin_accounting_companies')
    .set({ next_record_id: sql<number>`next_record_id + 1` })
    .where('id', '=', companyId)
    .returning(['next_record_id'])
    .executeTakeFirstOrThrow();
  return String(row.next_record_id - 1);
}

export function findRecord(db: StandInDb, companyId: string, type: RecordType, id: string): Promise<RecordRow | undefined> {
  return db
    .selectFrom('standin_accounting_records')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('type', '=', type)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Another customer of the company already using this name, if any. */
export function findByName(db: StandInDb, companyId: string, type: RecordType, key: string, exceptId: string | null): Promise<RecordRow | undefined> {
  let query = db.selectFrom('standin_accounting_records').selectAll().where('company_id', '=', companyId).where('type', '=', type).where('name_key', '=', key);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

/** The record an earlier create with this `requestid` made (QuickBooks answers it again instead of creating another). */
export function findByRequestId(db: StandInDb, companyId: string, type: RecordType, requestId: string): Promise<RecordRow | undefined> {
  return db
    .selectFrom('standin_accounting_records')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('type', '=', type)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

export async function saveRecord(
  db: StandInDb,
  input: { companyId: string; type: RecordType; id: string; version: number; body: Record<string, unknown>; nameKey: string | null; requestId?: string | null },
): Promise<void> {
  await db
    .insertInto('standin_accounting_records')
    .values({
      company_id: input.companyId,
      type: input.type,
      id: input.id,
      version: input.version,
      body: JSON.stringify(input.body),
      name_key: input.nameKey,
      request_id: input.requestId ?? null,
    })
    .onConflict((oc) =>
      oc
        .columns(['company_id', 'type', 'id'])
        .doUpdateSet({ version: input.version, body: JSON.stringify(input.body), name_key: input.nameKey, updated_at: new Date() }),
    )
    .execute();
}

/** QuickBooks' `operation=delete`: the record is gone from the company. */
export async function deleteRecord(db: StandInDb, companyId: string, type: RecordType, id: string): Promise<void> {
  await db.deleteFrom('standin_accounting_records').where('company_id', '=', companyId).where('type', '=', type).where('id', '=', id).execute();
}

export function listRecords(db: StandInDb, companyId: string, type: RecordType): Promise<RecordRow[]> {
  return db
    .selectFrom('standin_accounting_records')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('type', '=', type)
    .orderBy(sql`length(id)`)
    .orderBy('id')
    .execute();
}

/**
 * The token endpoint's two grants, as both providers take them: `authorization_code` (the code
 * redeemed, once, for its redirect URI and PKCE verifier) and `refresh_token` (rotated). The
 * answer's shape is each provider's own.
 */
export async function grantTokens(
  db: StandInDb,
  provider: IntegrationProvider,
  clientId: string,
  body: Record<string, unknown>,
  lifetimes: Lifetimes,
): Promise<IssuedTokens | Refusal | { error: 'unsupported_grant_type'; description: string }> {
  const value = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  const grantType = value('grant_type');
  if (grantType === 'authorization_code') {
    const redeemed = await redeemCode(db, {
      code: value('code') ?? '',
      clientId,
      redirectUri: value('redirect_uri') ?? '',
      codeVerifier: value('code_verifier') ?? null,
    });
    if ('error' in redeemed) return redeemed;
    return issueTokens(db, redeemed.companyId, redeemed.grantId, lifetimes);
  }
  if (grantType === 'refresh_token') return refreshTokens(db, provider, value('refresh_token') ?? '', lifetimes);
  return { error: 'unsupported_grant_type', description: 'grant_type must be authorization_code or refresh_token.' };
}
