import pg from 'pg';
import { measure, printTable } from '/work/main/bench/lib/load.mjs';
import { startTay } from '/work/main/bench/lib/server.mjs';
import { approvedTenant } from '/work/main/bench/lib/tenant.mjs';
const tay = await startTay({ env: { LOG_LEVEL: process.env.LL ?? 'info' } });
try {
  const main = await approvedTenant(tay, 'probe@example.com');
  const c = new pg.Client(tay.connection); await c.connect();
  await c.query(`INSERT INTO payers (business_id, id, display_name, email) SELECT $1, 'p'||g, 'Payer '||g, 'p'||g||'@x.example' FROM generate_series(1,1000) g`, [main.businessId]);
  await c.query(`INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, due_date, expires_on, state, created_at) SELECT $1, 'r'||g, g, 'p'||(1+g%1000), 'Payer '||(1+g%1000), 'p'||(1+g%1000)||'@x.example', 100+g, current_date, current_date+30, 'Sent', now() - make_interval(secs => g) FROM generate_series(1, 5000) g`, [main.businessId]);
  await c.end();
  const headers = { authorization: `Bearer ${main.token}` };
  printTable('probe', [await measure({ name: 'payments page 1', url: `${tay.baseUrl}/api/businesses/${main.businessId}/payments`, headers, duration: 8 })]);
} finally { await tay.stop(); }
