import { maskDateOfBirth, parseDateCell, type BatchKind, type BatchState } from '@tay/contract';

/**
 * A patient import (ADR 037) shows a date of birth in full only while its batch is a Draft: the
 * row being fixed needs it. Once submitted, its rows, its errors file and its sample show it
 * masked ("••/••/1984"), as every list of patients does.
 */
export function hidesBirthDates(batch: { kind: BatchKind; state: BatchState }): boolean {
  return batch.kind === 'patients' && batch.state !== 'Draft';
}

/** A date-of-birth cell as the file had it, masked: the year when it reads as a date, nothing of it otherwise. */
export function maskedBirthCell(text: string): string {
  const value = text.trim();
  if (!value) return text;
  return maskDateOfBirth(parseDateCell(value) ?? '');
}

/** A row's cells and errors with the date of birth masked (an error may quote the cell). */
export function maskedBirthDate(fields: Record<string, string>, errors: Record<string, string>) {
  const cell = fields.dateOfBirth;
  if (cell === undefined || !cell.trim()) return { fields, errors };
  const masked = maskedBirthCell(cell);
  const shown = { ...errors };
  if (shown.dateOfBirth) shown.dateOfBirth = shown.dateOfBirth.replaceAll(cell.trim(), masked);
  return { fields: { ...fields, dateOfBirth: masked }, errors: shown };
}

/** The file's first rows (the mapping preview) with the date-of-birth column masked. */
export function maskedSample(columns: readonly string[], mapping: { columns: Partial<Record<string, string>> }, sample: string[][]): string[][] {
  const column = mapping.columns.dateOfBirth;
  const at = column ? columns.indexOf(column) : -1;
  if (at < 0) return sample;
  return sample.map((cells) => cells.map((cell, i) => (i === at ? maskedBirthCell(cell) : cell)));
}
