import { describe, expect, it } from 'vitest';
import { addDays, checkValues, dueDateOf, emptyValues, errorsFromApi, figuresOf, newLine, toInput } from './invoice-form-model';

describe('the invoice form’s model', () => {
  it('works out the figures as typed, with what does not read yet as 0', () => {
    const lines = [newLine({ quantity: '3', unitPrice: '10.00', taxRate: '8.875' }), newLine({ quantity: '2.', unitPrice: 'abc' })];
    expect(figuresOf({ lines, discountType: 'none', discountValue: '' })).toMatchObject({ subtotalCents: 3_000, taxCents: 266, totalCents: 3_266 });
    expect(figuresOf({ lines, discountType: 'amount', discountValue: '5' })).toMatchObject({ discountCents: 500, taxCents: 222, totalCents: 2_722 });
  });

  it('gives the due date of the terms, on the calendar', () => {
    expect(addDays('2026-01-31', 30)).toBe('2026-03-02');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(dueDateOf({ issueDate: '2026-12-15', terms: 'net30', dueDate: '' })).toBe('2027-01-14');
    expect(dueDateOf({ issueDate: '2026-12-15', terms: 'due_on_receipt', dueDate: '' })).toBe('2026-12-15');
    expect(dueDateOf({ issueDate: '2026-12-15', terms: 'custom', dueDate: '2027-02-01' })).toBe('2027-02-01');
    expect(dueDateOf({ issueDate: '', terms: 'net7', dueDate: '' })).toBeNull();
  });

  it('reads quantities to 3 decimals and an empty tax rate as none', () => {
    const values = {
      ...emptyValues('2026-05-01', { payerId: 'pyr_1', displayName: 'Pat', email: 'pat@payers.example' }),
      lines: [newLine({ description: ' Tuning ', quantity: '1.125', unitPrice: '1,200.50', taxRate: '' })],
    };
    expect(checkValues(values)).toEqual({ fields: {}, lines: {}, other: [] });
    expect(toInput(values).items).toEqual([{ description: 'Tuning', quantity: 1.125, unitPriceCents: 120_050, taxRate: 0 }]);
    const wrong = { ...values, lines: [newLine({ description: 'x', quantity: '0', unitPrice: '1', taxRate: '101' })] };
    const key = wrong.lines[0]!.key;
    expect(checkValues(wrong).lines[key]).toEqual({ quantity: 'The quantity must be above 0.', taxRate: 'The tax rate cannot be above 100%.' });
    const negative = { ...values, lines: [newLine({ description: 'x', quantity: '-2', unitPrice: '1' })] };
    expect(checkValues(negative).lines[negative.lines[0]!.key]).toEqual({ quantity: 'The quantity cannot be negative.' });
    const unreadable = { ...values, lines: [newLine({ description: 'x', quantity: 'two', unitPrice: '1' })] };
    expect(checkValues(unreadable).lines[unreadable.lines[0]!.key]).toEqual({ quantity: 'Enter a quantity like 1 or 2.5.' });
  });

  it('puts the API’s field errors on the lines they were sent as, and the rest on the form', () => {
    expect(
      errorsFromApi(
        {
          'items.1.unitPriceCents': 'Too much.',
          'items.0': 'Bad line.',
          'discount.percent': 'Too high.',
          dueDate: 'Choose the due date.',
          weird: 'Something else.',
        },
        ['line-a', 'line-b'],
      ),
    ).toEqual({
      fields: { discount: 'Too high.', dueDate: 'Choose the due date.' },
      lines: { 'line-b': { unitPrice: 'Too much.' }, 'line-a': { description: 'Bad line.' } },
      other: ['Something else.'],
    });
  });
});
