// Bundles the API (with the workspace's @tay/contract) into dist/main.js; npm packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: { '@tay/contract': '../../packages/contract/src/index.ts' },
  logLevel: 'warning',
});
