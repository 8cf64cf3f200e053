/* ------------------------------------------------------------------- CSV */

/**
 * One CSV cell, safe against formula injection: a value a spreadsheet would run (= + - @, tab,
 * carriage return) is prefixed with an apostrophe; quotes are doubled.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  // Numbers are data, not formulas (a negative amount, "-20.00", too); text that starts like a formula is neutralised.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: (string | number | null | undefined)[]): string {
  return values.map(csvCell).join(',');
}
