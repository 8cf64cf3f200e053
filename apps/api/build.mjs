// Bundles the API (with the workspace's @tay/contract) into dist/main.js, and the embedded database's
// thread into dist/pglite-worker.js beside it (ADR 042); npm packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/main.ts', 'pglite-worker': 'src/db/pglite-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: { '@tay/contract': '../../packages/contract/src/index.ts' },
  logLevel: 'warning',
});
