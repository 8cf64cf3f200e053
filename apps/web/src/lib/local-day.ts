/** A day of the person's own calendar, `YYYY-MM-DD`: today plus `days` (the server checks again with the business's own day). */
export function dayInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Today in the person's own calendar, `YYYY-MM-DD`. */
export const localToday = (): string => dayInDays(0);
