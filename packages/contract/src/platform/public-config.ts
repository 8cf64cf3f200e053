import { z } from 'zod';

/**
 * Settings the web app needs before its first request, written by the server into the page
 * as `<meta name="tay-config" content="…json…">`.
 */
export const PublicConfig = z.object({
  environment: z.enum(['development', 'production', 'test']),
  marketingSiteUrl: z.string(),
  /** The payment processor's publishable key for this environment (docs/product.md §7). */
  processorPublishableKey: z.string(),
  /** The processor's hosted card field, framed by the pay page (with `?pk=<publishable key>`). */
  processorElementsUrl: z.string(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
