import { formatMoney } from '../common/money';

/**
 * The arithmetic of a patient statement (ADR 037), shared by the single statement, the
 * patient-billing batch, the API and the web previews. Amounts are integer cents. A line's patient
 * responsibility is billed − insurance paid − adjustment; the statement's amount due is the sum of
 * its lines' responsibilities.
 */
export interface StatementLineCents {
  billedCents: number;
  insurancePaidCents: number;
  adjustmentCents: number;
  responsibilityCents: number;
}

export const STATEMENT_LIMITS = { lines: 50, description: 200 } as const;

export function expectedResponsibility(line: Omit<StatementLineCents, 'responsibilityCents'>): number {
  return line.billedCents - line.insurancePaidCents - line.adjustmentCents;
}

export type StatementLineField = 'billed' | 'insurancePaid' | 'adjustment' | 'patientResponsibility';

/**
 * What is wrong with a line's amounts, by field (empty when it adds up). `responsibilityCents` null
 * means "not given": it is then computed and only the other rules apply.
 */
export function statementLineErrors(
  line: Omit<StatementLineCents, 'responsibilityCents'> & { responsibilityCents: number | null },
): Partial<Record<StatementLineField, string>> {
  const errors: Partial<Record<StatementLineField, string>> = {};
  if (line.billedCents <= 0) errors.billed = 'The billed amount must be more than $0.00.';
  if (line.insurancePaidCents < 0) errors.insurancePaid = 'Insurance paid cannot be negative.';
  if (line.adjustmentCents < 0) errors.adjustment = 'The adjustment cannot be negative.';
  if (Object.keys(errors).length > 0) return errors;
  const expected = expectedResponsibility(line);
  if (expected < 0) {
    errors.insurancePaid = `Insurance paid (${formatMoney(line.insurancePaidCents)}) and the adjustment (${formatMoney(line.adjustmentCents)}) together are more than the ${formatMoney(line.billedCents)} billed.`;
    return errors;
  }
  if (line.responsibilityCents !== null && line.responsibilityCents !== expected) {
    errors.patientResponsibility = `The patient responsibility does not add up: ${formatMoney(line.billedCents)} billed − ${formatMoney(line.insurancePaidCents)} insurance paid − ${formatMoney(line.adjustmentCents)} adjustment is ${formatMoney(expected)}, not ${formatMoney(line.responsibilityCents)}.`;
  }
  return errors;
}

export function statementTotals(lines: readonly StatementLineCents[]): StatementLineCents {
  return lines.reduce(
    (t, l) => ({
      billedCents: t.billedCents + l.billedCents,
      insurancePaidCents: t.insurancePaidCents + l.insurancePaidCents,
      adjustmentCents: t.adjustmentCents + l.adjustmentCents,
      responsibilityCents: t.responsibilityCents + l.responsibilityCents,
    }),
    { billedCents: 0, insurancePaidCents: 0, adjustmentCents: 0, responsibilityCents: 0 },
  );
}
