// Bank numbers' rules, apart from the schemas: the payer's page checks a routing number without
// building every business schema on a phone.

/** ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0 && value !== '000000000';
}

/** `••••6789`: what the portal shows of an account or routing number. */
export function maskNumber(value: string, visible = 4): string {
  return `••••${value.slice(-visible)}`;
}
