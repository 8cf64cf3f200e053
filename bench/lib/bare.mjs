// Starts a bare baseline server (bench/bare/*.mjs) in a process of its own, with the Node flags
// the Tay server gets, so neither competes with the load generator for an event loop.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { drain, freePort, root, startFlags } from './server.mjs';

export async function startBare(script, env = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const flags = process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean) : startFlags();
  const child = spawn('node', [...flags, path.join(root, 'bench/bare', script)], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Read as Tay's output is (server.mjs), though the bare servers log nothing.
  drain(child.stdout);
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`The bare server ${script} exited`);
    try {
      if ((await fetch(`${baseUrl}/bare/ready`)).ok) break;
    } catch {
      // starting
    }
    if (i === 300) throw new Error(`The bare server ${script} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
