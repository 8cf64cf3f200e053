// GET /api/health through the whole Tay stack (helmet, rate limit, request ids, logging,
// zod serialisation) against a bare Fastify route in the same run: the ratio is the
// framework overhead of our plugin stack.
import Fastify from 'fastify';
import { measure, printTable } from './lib/load.mjs';
import { freePort, startTay } from './lib/server.mjs';

export async function run({ duration = 10, connections = 50 } = {}) {
  const bare = Fastify({ logger: false });
  bare.get('/api/health', async () => ({ status: 'ok' }));
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: '127.0.0.1' });

  const tay = await startTay();
  try {
    const rows = [
      await measure({ name: 'bare Fastify GET /api/health', url: `http://127.0.0.1:${barePort}/api/health`, connections, duration }),
      await measure({ name: `Tay GET /api/health (${tay.database})`, url: `${tay.baseUrl}/api/health`, connections, duration }),
      await measure({ name: `Tay GET /api/ready (${tay.database})`, url: `${tay.baseUrl}/api/ready`, connections, duration }),
    ];
    printTable('Health endpoints', rows);
    const ratio = rows[0]['req/s'] / rows[1]['req/s'];
    console.log(`Framework overhead: the bare route serves ${ratio.toFixed(2)}× the requests per second of Tay's /api/health.`);
    return rows;
  } finally {
    await tay.stop();
    await bare.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
