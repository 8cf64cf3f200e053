import { describe, expect, it } from 'vitest';
import { OWN_SOURCE } from '../payment-requests/request-source';
import { requestStatement, statementSource } from './statement-source';

describe("a patient's statement as a request's source", () => {
  const line = {
    serviceDate: '2026-11-02',
    description: 'Cleaning',
    billedCents: 20000,
    insurancePaidCents: 12000,
    adjustmentCents: 3000,
    responsibilityCents: 5000,
  };

  it('carries the patient, the lines in their order and their totals; the history shows them, never the first name', () => {
    const source = statementSource({ id: 'pat_1', name: 'Ana Ruiz', firstName: 'Ana' }, '2026-11-02', [line, { ...line, description: 'X-ray' }]);
    expect(source).toMatchObject({ kind: 'patient', id: 'pat_1', number: null });
    expect(source.record.list).toEqual({
      clientId: 'pat_1',
      patientName: 'Ana Ruiz',
      statement: {
        dateOfService: '2026-11-02',
        lines: [line, { ...line, description: 'X-ray' }],
        totals: { billedCents: 40000, insurancePaidCents: 24000, adjustmentCents: 6000, responsibilityCents: 10000 },
      },
    });
    expect(source.record.patientFirstName).toBe('Ana');
    expect(requestStatement({ source_kind: source.kind, source: source.record })?.totals.responsibilityCents).toBe(10000);
  });

  it('reads no statement on a request of another kind', () => {
    expect(requestStatement({ source_kind: OWN_SOURCE.kind, source: OWN_SOURCE.record })).toBeNull();
    expect(requestStatement({ source_kind: 'student', source: { list: { statement: { dateOfService: 'x' } } } })).toBeNull();
  });
});
