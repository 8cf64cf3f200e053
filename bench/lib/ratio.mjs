// Tay against its bare baseline on a noisy shared host: the two are measured one right after the
// other, BENCH_ROUNDS times (default 1), the order swapped each round so neither always gets the
// warmer or the quieter slot, and the ratio Tay/bare is given per round and as the median.

export const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

/**
 * Runs `bare()` and `tay()` (each resolves to a table row with `req/s`) `rounds` times, and returns
 * every row (with its round) and the ratios Tay/bare.
 */
export async function interleaved(bare, tay) {
  const rows = [];
  const ratios = [];
  for (let round = 1; round <= rounds; round++) {
    const pair = {};
    for (const which of round % 2 === 1 ? ['bare', 'tay'] : ['tay', 'bare']) {
      pair[which] = await (which === 'bare' ? bare() : tay());
      rows.push({ round, ...pair[which] });
    }
    ratios.push(pair.tay['req/s'] / pair.bare['req/s']);
  }
  return { rows, ratios };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** "0.72× (rounds: 0.70, 0.72, 0.75)". */
export function describeRatios(ratios) {
  const each = ratios.length > 1 ? ` (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})` : '';
  return `${median(ratios).toFixed(2)}×${each}`;
}
