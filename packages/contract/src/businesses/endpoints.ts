import { MONEY_RULES } from '../common/money-rules';
import { defineEndpoint } from '../common/endpoint';
import {
  AddBankAccountBody,
  BusinessIdParams,
  BusinessResponse,
  CodeListResponse,
  CreateBusinessBody,
  DirectoryBanksQuery,
  DirectoryBanksResponse,
  LogoUploadBody,
  PrepareSubmitResponse,
  UpdateBusinessBody,
} from './schemas';
import { AREA } from '../common/areas';

const tag = AREA.businesses;
const change = { access: 'business:write', rules: ['editable'] } as const;

/** Onboarding and setup of a business (docs/product.md, "Businesses"). */
export const businessEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/businesses',
    summary: 'Create a business; the signed-in user becomes its owner',
    tag,
    access: 'user',
    body: CreateBusinessBody,
    status: 201,
    response: BusinessResponse,
    errors: [409],
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id',
    summary: 'One business of the signed-in user',
    description: "The owners' dates of birth and SSN digits are for those who manage the business: a member or a viewer gets null in their place.",
    tag,
    access: 'business:read',
    withheld: { access: 'business:write', paths: ['data.owners[].dateOfBirth', 'data.owners[].ssnLast4'] },
    params: BusinessIdParams,
    response: BusinessResponse,
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/businesses/:id/update',
    summary: 'Update any of the setup sections (profile, address, owners, config, automations)',
    tag,
    ...change,
    params: BusinessIdParams,
    body: UpdateBusinessBody,
    response: BusinessResponse,
    errors: [422],
  }),
  prepareSubmit: defineEndpoint({
    method: 'PATCH',
    path: '/api/businesses/:id/update/prepareSubmit',
    summary: 'What is still missing before the business can be submitted',
    tag,
    access: 'business:read',
    params: BusinessIdParams,
    response: PrepareSubmitResponse,
  }),
  submit: defineEndpoint({
    method: 'PATCH',
    path: '/api/businesses/:id/update/submit',
    summary: 'Submit the business for review (Incomplete → Pending); 422 lists what is missing',
    tag,
    access: 'business:write',
    params: BusinessIdParams,
    response: BusinessResponse,
    errors: [409, 422],
  }),
  addBankAccount: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/bank-accounts',
    summary: 'Set the settlement bank account (typed numbers or a bank from the directory)',
    tag,
    access: MONEY_RULES.settlementAccount.access,
    rules: ['editable'],
    params: BusinessIdParams,
    body: AddBankAccountBody,
    response: BusinessResponse,
    errors: [422],
  }),
  uploadLogo: defineEndpoint({
    method: 'POST',
    path: '/api/businesses/:id/logo',
    summary: 'Upload the logo: a data URL of a PNG, JPEG, WebP or SVG image up to 512 KB',
    tag,
    ...change,
    params: BusinessIdParams,
    body: LogoUploadBody,
    response: BusinessResponse,
    errors: [413],
  }),
  logo: defineEndpoint({
    method: 'GET',
    path: '/api/businesses/:id/logo',
    summary: 'The logo image (public; the URL in logoUrl changes with every upload)',
    tag,
    access: 'public',
    params: BusinessIdParams,
    response: { description: 'The image, as uploaded', contentTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] },
    errors: [404],
  }),
};

/** Reference lists of the setup forms: public and cacheable; the bank directory for signed-in people. */
export const referenceEndpoints = {
  mcc: defineEndpoint({
    method: 'GET',
    path: '/api/mcc',
    summary: 'Merchant category codes (ISO 18245)',
    tag: 'reference',
    access: 'public',
    response: CodeListResponse,
  }),
  corporateStructures: defineEndpoint({
    method: 'GET',
    path: '/api/corpStruct',
    summary: 'Corporate structures',
    tag: 'reference',
    access: 'public',
    response: CodeListResponse,
  }),
  nonProfitCodes: defineEndpoint({
    method: 'GET',
    path: '/api/nonProfitCode',
    summary: 'IRS non-profit (501) codes',
    tag: 'reference',
    access: 'public',
    response: CodeListResponse,
  }),
  banks: defineEndpoint({
    method: 'GET',
    path: '/api/directory/banks',
    summary: 'The sandbox bank directory, searched by name or routing number',
    tag: 'reference',
    access: 'user',
    query: DirectoryBanksQuery,
    response: DirectoryBanksResponse,
  }),
};
