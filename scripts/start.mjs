// `npm start` (serve), `npm run worker`, `npm run db:migrate`, `npm run ops -- …`:
// builds what is missing or stale, then runs the API's entry point in this process.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, root } from './build-if-needed.mjs';

const modes = { '--worker': 'worker', '--migrate': 'migrate', '--ops': 'ops' };
const [flag, ...rest] = process.argv.slice(2);
const mode = modes[flag] ?? 'serve';
const args = modes[flag] ? rest : process.argv.slice(2);

buildIfNeeded();
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], 'main.js', mode, ...args];
await import(pathToFileURL(path.join(root, 'apps/api/dist/main.js')).href);
