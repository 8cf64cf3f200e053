import type { PublicConfig } from './public-config';

// No zod here: the web app reads its settings from the page before anything else loads.

export const PUBLIC_CONFIG_META = 'tay-config';

const ENVIRONMENTS: readonly string[] = ['development', 'production', 'test'] satisfies PublicConfig['environment'][];

/** Whether a value is a `PublicConfig` (what the schema accepts). */
export function isPublicConfig(value: unknown): value is PublicConfig {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  return (
    typeof config.environment === 'string' &&
    ENVIRONMENTS.includes(config.environment) &&
    typeof config.marketingSiteUrl === 'string' &&
    typeof config.processorPublishableKey === 'string' &&
    typeof config.processorElementsUrl === 'string'
  );
}
