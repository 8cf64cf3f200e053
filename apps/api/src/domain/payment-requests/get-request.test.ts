import { describe, expect, it } from 'vitest';
import { MAIL_DELIVERY_ATTEMPTS } from '@tay/contract';
import { emailDelivery } from './get-request';

describe('where an e-mail’s delivery stands', () => {
  it('reads each outbox row as the request’s detail shows it', () => {
    expect(emailDelivery({ transport: 'outbox', status: 'stored', attempts: 0 })).toBe('outbox');
    expect(emailDelivery({ transport: 'smtp', status: 'queued', attempts: 0 })).toBe('sending');
    expect(emailDelivery({ transport: 'smtp', status: 'sent', attempts: 3 })).toBe('delivered');
    expect(emailDelivery({ transport: 'smtp', status: 'failed', attempts: 1 })).toBe('retrying');
    expect(emailDelivery({ transport: 'smtp', status: 'failed', attempts: MAIL_DELIVERY_ATTEMPTS - 1 })).toBe('retrying');
    expect(emailDelivery({ transport: 'smtp', status: 'failed', attempts: MAIL_DELIVERY_ATTEMPTS })).toBe('failed');
  });
});
