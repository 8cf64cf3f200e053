import { describe, expect, it } from 'vitest';
import { patientStatementLine, PatientStatementInput, statementLines } from './statements';

const base = {
  dateOfService: '2026-11-20',
  dueDate: '2026-12-20',
  mode: 'send',
  lines: [{ description: 'Office visit', billedCents: 20_000, insurancePaidCents: 12_000, adjustmentCents: 500 }],
};

const issues = (input: unknown) => {
  const parsed = PatientStatementInput.safeParse(input);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('PatientStatementInput', () => {
  it('takes a statement: insurance and adjustment default to 0, the service date to the date of service', () => {
    const parsed = PatientStatementInput.parse({ ...base, lines: [{ description: ' Cleaning ', billedCents: 9_000 }] });
    expect(parsed.lines[0]).toEqual({ description: 'Cleaning', billedCents: 9_000, insurancePaidCents: 0, adjustmentCents: 0 });
    expect(parsed.allowPartial).toBe(false);
    expect(statementLines(parsed.lines, parsed.dateOfService)).toEqual([
      { serviceDate: '2026-11-20', description: 'Cleaning', billedCents: 9_000, insurancePaidCents: 0, adjustmentCents: 0, responsibilityCents: 9_000 },
    ]);
  });

  it('names the line and field of a responsibility that does not add up', () => {
    expect(
      issues({ ...base, lines: [base.lines[0], { description: 'X-ray', billedCents: 15_000, insurancePaidCents: 9_000, responsibilityCents: 5_000 }] }),
    ).toEqual({
      'lines.1.patientResponsibility':
        'Line 2: The patient responsibility does not add up: $150.00 billed − $90.00 insurance paid − $0.00 adjustment is $60.00, not $50.00.',
    });
  });

  it('refuses insurance and adjustment above the billed amount, and a statement that nets to $0.00', () => {
    expect(issues({ ...base, lines: [{ description: 'Visit', billedCents: 100, insurancePaidCents: 80, adjustmentCents: 30 }] })).toHaveProperty([
      'lines.0.insurancePaid',
    ]);
    expect(issues({ ...base, lines: [{ description: 'Visit', billedCents: 100, insurancePaidCents: 100 }] })).toEqual({
      lines: 'The patient owes nothing on this statement: its lines net to $0.00 after insurance and adjustments.',
    });
  });

  it('refuses no lines, more than 50, a blank description and cents that are not whole', () => {
    expect(issues({ ...base, lines: [] })).toHaveProperty('lines');
    expect(issues({ ...base, lines: Array.from({ length: 51 }, () => base.lines[0]) })).toHaveProperty('lines');
    expect(issues({ ...base, lines: [{ ...base.lines[0], description: '   ' }] })).toHaveProperty(['lines.0.description']);
    expect(issues({ ...base, lines: [{ ...base.lines[0], billedCents: 10.5 }] })).toHaveProperty(['lines.0.billedCents']);
  });
});

describe('patientStatementLine', () => {
  it('names the patient by first name and the date of service, and nothing for another request', () => {
    expect(patientStatementLine({ patientFirstName: 'Ana', dateOfService: '2026-11-20' })).toBe('Statement for Ana — date of service Nov 20, 2026');
    expect(patientStatementLine({ patientFirstName: null, dateOfService: null })).toBeNull();
  });
});
