import { describe, expect, it } from 'vitest';
import { errorDetailsOf } from './error-shape';
import { ErrorResponse } from './errors';
import { PublicConfig } from '../platform/public-config';
import { isPublicConfig } from '../platform/public-config-meta';

// The hand-written checks stand in for the schemas where the web app must not load zod: they
// accept exactly what the schemas accept.
const errorBodies: unknown[] = [
  { status: 'Error', errorDetails: { code: 'NOT_FOUND', message: 'No such request.' } },
  { status: 'Error', errorDetails: { code: 'VALIDATION_FAILED', message: 'Check the form.', fields: { 'owners.0.email': 'Enter an e-mail.' } } },
  { status: 'Error', errorDetails: { code: 'X', message: 'Y', fields: {} }, extra: true },
  { status: 'Error', errorDetails: { code: 'X', message: 'Y', fields: { a: 1 } } },
  { status: 'Error', errorDetails: { code: 'X', message: 'Y', fields: ['a'] } },
  { status: 'Error', errorDetails: { code: 'X', message: 'Y', fields: null } },
  { status: 'Error', errorDetails: { code: 1, message: 'Y' } },
  { status: 'Error', errorDetails: { code: 'X' } },
  { status: 'Error', errorDetails: null },
  { status: 'Error', errorDetails: [] },
  { status: 'Success', errorDetails: { code: 'X', message: 'Y' } },
  { status: 'Error' },
  'Error',
  null,
  undefined,
  [],
];

describe('errorDetailsOf', () => {
  it.each(errorBodies.map((body) => [JSON.stringify(body) ?? 'undefined', body]))('agrees with ErrorResponse on %s', (_, body) => {
    const parsed = ErrorResponse.safeParse(body);
    expect(errorDetailsOf(body)).toEqual(parsed.success ? parsed.data.errorDetails : null);
  });
});

const config = {
  environment: 'production',
  marketingSiteUrl: 'https://tay.com',
  processorPublishableKey: 'pk_test_1',
  processorElementsUrl: '/sandbox-processor/elements/card-field',
};
const configs: unknown[] = [
  config,
  { ...config, environment: 'test' },
  { ...config, extra: 1 },
  { ...config, environment: 'staging' },
  { ...config, marketingSiteUrl: null },
  { ...config, processorPublishableKey: undefined },
  { ...config, processorElementsUrl: 3 },
  [],
  null,
  'production',
];

describe('isPublicConfig', () => {
  it.each(configs.map((value) => [JSON.stringify(value), value]))('agrees with PublicConfig on %s', (_, value) => {
    expect(isPublicConfig(value)).toBe(PublicConfig.safeParse(value).success);
  });
});
