// Builds the web app and the API when their output is missing or older than any source file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const contract = newestMtime(path.join(root, 'packages/contract/src'));
const targets = [
  {
    name: 'web app',
    output: path.join(root, 'apps/web/dist/index.html'),
    sources: ['apps/web/src', 'apps/web/build', 'apps/web/index.html', 'apps/web/pay.html', 'apps/web/public', 'apps/web/vite.config.ts'],
    command: ['npm', ['run', 'build', '-w', '@tay/web']],
  },
  {
    name: 'API',
    output: path.join(root, 'apps/api/dist/main.js'),
    sources: ['apps/api/src', 'apps/api/build.mjs'],
    command: ['npm', ['run', 'build', '-w', '@tay/api']],
  },
];

export function buildIfNeeded() {
  for (const target of targets) {
    const built = newestMtime(target.output);
    const source = Math.max(contract, ...target.sources.map((s) => newestMtime(path.join(root, s))));
    if (built > 0 && built >= source) continue;
    console.log(`Building the ${target.name}…`);
    // Always a production build, whatever NODE_ENV the caller runs with (a test runner sets 'test').
    const result = spawnSync(target.command[0], target.command[1], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (result.status !== 0) {
      console.error(`Building the ${target.name} failed.`);
      process.exit(result.status ?? 1);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded();
