// `npm run bench`: every benchmark scenario, printed as tables. Not a test: nothing here
// passes or fails; the figures go into the closing notes and docs.
// Usage: npm run bench [-- health] ; DATABASE_URL=postgres://… npm run bench
const scenarios = {
  health: () => import('./health.mjs'),
  requests: () => import('./requests.mjs'),
  bulk: () => import('./bulk.mjs'),
  reports: () => import('./reports.mjs'),
  bundle: () => import('./bundle.mjs'),
  lighthouse: () => import('./lighthouse.mjs'),
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const name of wanted.length ? wanted : Object.keys(scenarios)) {
  const load = scenarios[name];
  if (!load) {
    console.error(`Unknown scenario "${name}". Known: ${Object.keys(scenarios).join(', ')}`);
    process.exit(2);
  }
  const mod = await load();
  await mod.run();
}
