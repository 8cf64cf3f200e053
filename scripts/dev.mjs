// `npm run dev`: the API with reload on change (tsx watch) and the Vite dev server with HMR,
// which proxies /api to the API. Open http://localhost:5173.
import { spawn } from 'node:child_process';
import { root } from './build-if-needed.mjs';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/api/src/main.ts', 'serve'], { cwd: root, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@tay/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  });
