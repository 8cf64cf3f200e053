import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { attemptAfter, isAnswerUnknown, startAttempt } from './payment-attempt';

const visa = { token: 'tok_visa0000000001', label: 'Visa •••• 4242' };

describe('a payment attempt: one key for one exact body', () => {
  it('a new attempt carries the freshly made token under a key never used before', () => {
    const first = startAttempt('card', visa, 12_550);
    const second = startAttempt('card', visa, 12_550);
    expect(first.body).toEqual({ method: 'card', processorToken: 'tok_visa0000000001', amountCents: 12_550 });
    expect(first.instrumentLabel).toBe('Visa •••• 4242');
    expect(first.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it.each([
    ['no response at all (the connection dropped, maybe after the charge)', new ApiError(0, 'NETWORK_ERROR', 'We could not reach Tay.')],
    ['a failure on our side', new ApiError(500, 'INTERNAL_ERROR', 'Something went wrong on our side.')],
    ['a gateway that lost the answer', new ApiError(502, 'HTTP_ERROR', 'Something went wrong on our side. Please try again.')],
    ['too many requests (it never ran)', new ApiError(429, 'RATE_LIMITED', 'Slow down.')],
    [
      'the key still in use (the first send runs on, or its server died mid-payment)',
      new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed. Try again in a moment.'),
    ],
    ['an answer that could not be read', new TypeError('Failed to fetch')],
  ])('after %s the same attempt is sent again: same key, same token, same amount', (_case, error) => {
    const attempt = startAttempt('card', visa, 4_000, () => 'key-1');
    expect(isAnswerUnknown(error)).toBe(true);
    const again = attemptAfter(attempt, { error });
    expect(again).toBe(attempt);
    expect(again).toEqual({
      idempotencyKey: 'key-1',
      body: { method: 'card', processorToken: 'tok_visa0000000001', amountCents: 4_000 },
      instrumentLabel: 'Visa •••• 4242',
    });
  });

  it.each([
    ['a refusal of the input', new ApiError(400, 'VALIDATION_FAILED', 'These card or bank details can no longer be used. Enter them again.')],
    ['a request that is no longer payable', new ApiError(409, 'CONFLICT', 'This request is paid in full. Thank you!')],
    ['a key already used for another body', new ApiError(422, 'UNPROCESSABLE_ENTITY', 'This Idempotency-Key was already used with a different request.')],
    ['an unknown link', new ApiError(404, 'NOT_FOUND', 'This payment link is not valid any more.')],
  ])('after %s (a definitive answer) the next submit starts a new attempt', (_case, error) => {
    const attempt = startAttempt('bank_account', { token: 'tok_bank0000000001', label: 'Tay Sandbox Bank •••• 6789' }, 4_000);
    expect(isAnswerUnknown(error)).toBe(false);
    expect(attemptAfter(attempt, { error })).toBeNull();
  });

  it('after a payment — processed, pending or declined by the card issuer — the next submit starts a new attempt', () => {
    expect(attemptAfter(startAttempt('card', visa, 100), { ok: true })).toBeNull();
  });

  it('a lost answer, then the stored answer: the retry is the first attempt, and only a later attempt gets a new key and token', () => {
    let keys = 0;
    const newKey = () => `key-${++keys}`;
    const sent: { key: string; token: string }[] = [];
    const first = startAttempt('card', visa, 2_500, newKey);
    sent.push({ key: first.idempotencyKey, token: first.body.processorToken });
    const retry = attemptAfter(first, { error: new ApiError(0, 'NETWORK_ERROR', 'We could not reach Tay.') })!;
    sent.push({ key: retry.idempotencyKey, token: retry.body.processorToken });
    expect(attemptAfter(retry, { ok: true })).toBeNull();
    const next = startAttempt('card', { token: 'tok_visa0000000002', label: 'Visa •••• 4242' }, 2_500, newKey);
    sent.push({ key: next.idempotencyKey, token: next.body.processorToken });
    expect(sent).toEqual([
      { key: 'key-1', token: 'tok_visa0000000001' },
      { key: 'key-1', token: 'tok_visa0000000001' },
      { key: 'key-2', token: 'tok_visa0000000002' },
    ]);
  });
});
