import { isPublicConfig, PUBLIC_CONFIG_META, type PublicConfig } from '@tay/contract';

const DEFAULTS: PublicConfig = {
  environment: 'development',
  marketingSiteUrl: 'https://tay.com',
  processorPublishableKey: '',
  processorElementsUrl: '/sandbox-processor/elements/card-field',
};

/** The server writes these settings into the page; the Vite dev server does not, hence defaults. */
export function readPublicConfig(doc: Document = document): PublicConfig {
  const content = doc.querySelector(`meta[name="${PUBLIC_CONFIG_META}"]`)?.getAttribute('content');
  if (!content) return DEFAULTS;
  try {
    const parsed: unknown = JSON.parse(content);
    return isPublicConfig(parsed) ? parsed : DEFAULTS;
  } catch {
    return DEFAULTS;
  }
}

export const publicConfig = readPublicConfig();

/** External marketing pages (docs/product.md §2, anonymous header and footer). */
export function marketingUrl(page: string): string {
  return `${publicConfig.marketingSiteUrl.replace(/\/$/, '')}/${page}`;
}
