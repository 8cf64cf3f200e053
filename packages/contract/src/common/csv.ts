/* ------------------------------------------------------------------- CSV */

/**
 * An amount the server worked out, written as the number it is ("-20.00" stays a negative number
 * in a spreadsheet): never text a person typed, which `csvCell` neutralises instead.
 */
export interface CsvAmount {
  readonly amount: string;
}

/** Cents as a CSV amount in dollars, two decimals: `-2000` → `-20.00`. */
export function csvDollars(cents: number): CsvAmount {
  return { amount: (cents / 100).toFixed(2) };
}

type CsvValue = string | number | null | undefined | CsvAmount;

/**
 * One CSV cell, safe against formula injection: a value a spreadsheet would run (= + - @, tab,
 * carriage return) is prefixed with an apostrophe; quotes are doubled. Numbers and amounts
 * (`csvDollars`) are data, not formulas.
 */
export function csvCell(value: CsvValue): string {
  if (typeof value === 'object' && value !== null) {
    if (!/^-?\d+(\.\d+)?$/.test(value.amount)) throw new RangeError(`Not an amount: ${value.amount}`);
    return value.amount;
  }
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: CsvValue[]): string {
  return values.map(csvCell).join(',');
}
