import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { IntentKeys, retriesWithSameKey } from './idempotency-keys';

function keys() {
  let n = 0;
  return new IntentKeys(() => `key-${++n}`);
}

const network = new ApiError(0, 'NETWORK_ERROR', 'We could not reach Tay.');
const serverError = new ApiError(503, 'SERVICE_UNAVAILABLE', 'Try again.');
const inUse = new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed.');
const rateLimited = new ApiError(429, 'RATE_LIMITED', 'Slow down.');
const payerDisabled = new ApiError(400, 'VALIDATION_FAILED', 'Pat is deactivated; activate them first.', { payerId: 'This payer is deactivated.' });
const stateConflict = new ApiError(409, 'CONFLICT', 'A request that is Sent cannot be edited.');
const otherBody = new ApiError(422, 'UNPROCESSABLE_ENTITY', 'This Idempotency-Key was already used with a different request.');

describe('which failures keep the Idempotency-Key', () => {
  it.each([
    ['no answer at all', network],
    ['a failure on our side', serverError],
    ['a twin still running', inUse],
    ['rate limited before it ran', rateLimited],
    ['an error that is not from the API', new TypeError('Failed to fetch')],
  ])('%s: retried with the same key', (_, error) => {
    expect(retriesWithSameKey(error)).toBe(true);
  });

  it.each([
    ['a validation error', payerDisabled],
    ['a state conflict', stateConflict],
    ['the key used with another body', otherBody],
    ['not found', new ApiError(404, 'NOT_FOUND', 'Request not found.')],
  ])('%s: definitive, the next try takes a new key', (_, error) => {
    expect(retriesWithSameKey(error)).toBe(false);
  });
});

describe('keys per intent', () => {
  it('a lost answer, a 5xx or a twin still running: the same intent retried reuses its key', () => {
    const k = keys();
    expect(k.keyFor('send:req_1')).toBe('key-1');
    k.settle('send:req_1', network);
    expect(k.keyFor('send:req_1')).toBe('key-1');
    k.settle('send:req_1', serverError);
    expect(k.keyFor('send:req_1')).toBe('key-1');
    k.settle('send:req_1', inUse);
    expect(k.keyFor('send:req_1')).toBe('key-1');
  });

  it('after a definitive 4xx (e.g. a deactivated payer), trying again once fixed gets a new key', () => {
    const k = keys();
    const body = JSON.stringify({ payerId: 'pyr_1', amountCents: 100, mode: 'send' });
    expect(k.keyFor(body)).toBe('key-1');
    k.settle(body, payerDisabled);
    expect(k.keyFor(body)).toBe('key-2');
  });

  it('after a success, the same action again is a new intent (a second Resend sends again)', () => {
    const k = keys();
    expect(k.keyFor('resend:req_1')).toBe('key-1');
    k.settle('resend:req_1');
    expect(k.keyFor('resend:req_1')).toBe('key-2');
  });

  it('a changed body, or another request, is another intent with its own key', () => {
    const k = keys();
    expect(k.keyFor('{"amountCents":100}')).toBe('key-1');
    expect(k.keyFor('{"amountCents":200}')).toBe('key-2');
    expect(k.keyFor('send:req_1')).toBe('key-3');
    expect(k.keyFor('send:req_2')).toBe('key-4');
    // Going back to the first body while its outcome is unknown: still its first key.
    expect(k.keyFor('{"amountCents":100}')).toBe('key-1');
  });
});

describe('a call under its intent’s key', () => {
  it('sends the key, keeps it after an unknown outcome, and takes a new one after an answer', async () => {
    const k = keys();
    const sent: string[] = [];
    const call = (outcome: unknown) => (headers: { 'Idempotency-Key': string }) => {
      sent.push(headers['Idempotency-Key']);
      return outcome === 'ok' ? Promise.resolve('done') : Promise.reject(outcome);
    };
    await expect(k.run('send:req_1', call(network))).rejects.toBe(network);
    await expect(k.run('send:req_1', call('ok'))).resolves.toBe('done');
    await expect(k.run('send:req_1', call(payerDisabled))).rejects.toBe(payerDisabled);
    await expect(k.run('send:req_1', call('ok'))).resolves.toBe('done');
    expect(sent).toEqual(['key-1', 'key-1', 'key-2', 'key-3']);
  });
});
