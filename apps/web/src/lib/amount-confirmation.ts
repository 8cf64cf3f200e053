import { AMOUNT_CONFIRMATION_REQUIRED } from '@tay/contract';
import { ApiError } from './api-client';

/** Asks the person to confirm a large amount; resolves true to send it. */
export type AmountConfirmer = (ask: { amountCents: number; message: string }) => Promise<boolean>;

let confirmer: AmountConfirmer | null = null;

/** The portal's prompt (`components/ui/amount-confirmation.tsx`) registers itself here while it is mounted. */
export function registerAmountConfirmer(next: AmountConfirmer): () => void {
  confirmer = next;
  return () => {
    if (confirmer === next) confirmer = null;
  };
}

/**
 * Runs a call; when the API asks for a large amount to be confirmed (422
 * `AMOUNT_CONFIRMATION_REQUIRED`, issue 35), asks the person with the amount in words and, if they
 * confirm, runs it again with `confirmedAmountCents`. The API frees the Idempotency-Key of such a
 * refusal, so the confirmed call keeps the key of the intent. Declined, nothing was sent, and the
 * error says so.
 */
export async function withAmountConfirmation<T>(run: (confirmedAmountCents: number | undefined) => Promise<T>): Promise<T> {
  try {
    return await run(undefined);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== AMOUNT_CONFIRMATION_REQUIRED || error.confirmAmountCents === undefined || !confirmer) throw error;
    const amountCents = error.confirmAmountCents;
    if (!(await confirmer({ amountCents, message: error.message }))) {
      throw new ApiError(error.status, error.code, 'Nothing was sent: the amount was not confirmed.', error.fields, amountCents);
    }
    return run(amountCents);
  }
}
