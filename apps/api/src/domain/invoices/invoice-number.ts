/** INV-0001: at least four digits. */
export function invoiceNumber(number: number): string {
  return `INV-${String(number).padStart(4, '0')}`;
}

/** `INV-0042` (the prefix needed: bare digits are a TRX- number) → the invoice's number, else null. */
export function parseInvoiceReference(text: string): number | null {
  const match = /^inv-?(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : null;
}
