import { describe, expect, it } from 'vitest';
import { BatchSubmitBody, parseAmountCell, parseChannelCell, parseDateCell, parseYesNoCell, suggestBatchMapping } from './schemas';

describe('reading the cells of a bulk file', () => {
  it('reads amounts as people write them, in cents', () => {
    expect(parseAmountCell('125.5')).toBe(12_550);
    expect(parseAmountCell('$1,234.50')).toBe(123_450);
    expect(parseAmountCell(' $ 7 ')).toBe(700);
    expect(parseAmountCell('10 USD')).toBe(1000);
    for (const bad of ['abc', '1,2,3', '12.345', '-5', '', '1e3']) expect(parseAmountCell(bad)).toBeNull();
  });

  it('reads ISO, US and written dates, and refuses days that do not exist', () => {
    expect(parseDateCell('2026-12-31')).toBe('2026-12-31');
    expect(parseDateCell('12/31/2026')).toBe('2026-12-31');
    expect(parseDateCell('1/5/2027')).toBe('2027-01-05');
    expect(parseDateCell('Dec 31, 2026')).toBe('2026-12-31');
    expect(parseDateCell('December 31, 2026')).toBe('2026-12-31');
    for (const bad of ['02/30/2027', '2027-13-01', '31/12/2026', 'Decx 31, 2026', 'tomorrow', '2200-01-01']) expect(parseDateCell(bad)).toBeNull();
  });

  it('reads yes/no and the channel, blank meaning no and e-mail', () => {
    expect([parseYesNoCell(''), parseYesNoCell('Yes'), parseYesNoCell('n'), parseYesNoCell('TRUE'), parseYesNoCell('maybe')]).toEqual([
      false,
      true,
      false,
      true,
      null,
    ]);
    expect([parseChannelCell(''), parseChannelCell('E-mail'), parseChannelCell('SMS'), parseChannelCell('text'), parseChannelCell('fax')]).toEqual([
      'email',
      'email',
      'sms',
      'sms',
      null,
    ]);
  });
});

describe('suggestBatchMapping', () => {
  it('matches headers to fields, each column once, and reads first and last names as payers to create', () => {
    expect(suggestBatchMapping('requests', ['E-mail address', 'Amount', 'Due Date', 'Notes'])).toEqual({
      payer: 'existing',
      columns: { email: 'E-mail address', amount: 'Amount', dueDate: 'Due Date', memo: 'Notes' },
    });
    expect(suggestBatchMapping('requests', ['First name', 'Last name', 'Email', 'Total', 'Due']).payer).toBe('create');
  });
});

describe('BatchSubmitBody', () => {
  it('needs a time to schedule', () => {
    expect(BatchSubmitBody.safeParse({ mode: 'schedule' }).success).toBe(false);
    expect(BatchSubmitBody.safeParse({ mode: 'schedule', sendAt: '2027-01-01T09:00:00Z' }).success).toBe(true);
    expect(BatchSubmitBody.safeParse({ mode: 'send' }).success).toBe(true);
  });
});
