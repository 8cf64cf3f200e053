// Billing reports at scale (issue 23, ADR 039): a business with 10,000 requests and one with
// 1,000,000 (BENCH_REPORTS_ROWS), spread over the last 13 months and seeded with bulk SQL, most
// of them sent and about 70 % with a processed payment (card or bank account), 2 % returned, and
// one paid request in 50 half refunded, another in 50 disputed (half of those won). The rollup
// (`report_days`, migrations 0042, 0059 and 0063) is
// filled by its own triggers as the rows go in. Then,
// through the built server, one call at a time after a warm-up: the monthly report (last month by
// day), the custom report (the year to today by day), the daily report (yesterday, whose hours
// are read from that day's raw rows) and the overview, BENCH_REPORTS_CALLS times
// each (default 30), the two businesses in turns so host noise falls on both alike.
// Before the timing, each billing report's totals and days are checked against the raw rows, so
// what is timed is a report with the right figures. Goal (issue 23): median 1M / 10k ≤ 2× per report.
// BENCH_KEEP_DB=1 keeps the database (PostgreSQL or embedded) and reuses it.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { roundTrip } from './lib/host.mjs';
import { median } from './lib/ratio.mjs';
import { startTay } from './lib/server.mjs';
import { approvedTenant, signedInTenant } from './lib/tenant.mjs';

const SMALL_ROWS = 10_000;
const LARGE_ROWS = Number(process.env.BENCH_REPORTS_ROWS ?? 1_000_000);
const CALLS = Math.max(5, Number(process.env.BENCH_REPORTS_CALLS ?? 30));
const WARM_UP = 5;
/** The requests go in this many at a time: each statement's transition tables stay small on the embedded database. */
const CHUNK = 200_000;
/** How far back the requests go: 13 months and a few days. */
const SPAN_DAYS = 400;
const NAMES = ['Avery', 'Blake', 'Casey', 'Devon', 'Emery', 'Finley', 'Gray', 'Harper', 'Indy', 'Jules'];
/** Every figure of a report's rows and totals, recomputed from the raw rows before the timing. */
const CHECKED = [
  'billedCount',
  'billedCents',
  'collectedCount',
  'collectedCents',
  'returnedCount',
  'returnedCents',
  'refundedCount',
  'refundedCents',
  'disputedCount',
  'disputedCents',
  'feesCents',
  'netCents',
  'outstandingCents',
];

const count = (n) => n.toLocaleString('en-US');
const round = (n, digits = 1) => Number(n.toFixed(digits));

/**
 * `rows` requests for the business, one every SPAN_DAYS / rows (sent, first of all, at its
 * `created_at`), with a payer among `payers`. Out of every 100: 3 drafts (not billed), 63 paid in
 * full, 2 paid by bank account and returned (the request back in Error), 4 half paid, the rest
 * open, expired, withdrawn or cancelled. A payment is processed up to 3 days after the send (never
 * after now), by card or by bank account, with the default fees; a return comes 3 days later.
 */
async function seed(client, businessId, rows, payers) {
  await client.query(
    `INSERT INTO payers (business_id, id, first_name, last_name, display_name, email)
     SELECT $1, 'pyr_r' || $1 || '_' || g, 'First' || g, 'Last' || g, ($3::text[])[1 + g % 10] || ' Payer ' || g, 'payer' || g || '@' || $1 || '.example'
     FROM generate_series(1, $2) g`,
    [businessId, payers, NAMES],
  );
  // The request's number says everything else about it: the payments below are worked out from it.
  const request = `
    SELECT g, 1 + (g * 7919) % $2 AS p, 500 + (g * 104729) % 500000 AS amount, (g * 37) % 100 AS r,
           now() - make_interval(secs => ((${rows}::bigint - g) * ${(SPAN_DAYS * 86_400) / rows})::double precision) AS created,
           make_interval(mins => ((g * 13) % 4320)::integer) AS delay
    FROM generate_series($3::bigint, $4::bigint) g`;
  for (let start = 1; start <= rows; start += CHUNK) {
    const end = Math.min(rows, start + CHUNK - 1);
    await client.query(
      `INSERT INTO payment_requests (business_id, id, number, payer_id, payer_display_name, payer_email, amount_cents, amount_paid_cents,
                                     memo, due_date, expires_on, state, sent_at, paid_at, created_at, updated_at)
       SELECT $1, 'req_r' || $1 || '_' || g, 1000000 + g, 'pyr_r' || $1 || '_' || p, ($5::text[])[1 + p % 10] || ' Payer ' || p,
              'payer' || p || '@' || $1 || '.example', amount,
              CASE WHEN r BETWEEN 3 AND 65 THEN amount WHEN r BETWEEN 68 AND 71 THEN amount / 2 ELSE 0 END,
              'Seeded request ' || g, created::date + 14, created::date + 44,
              CASE WHEN r < 3 THEN 'Draft' WHEN r < 66 THEN 'Paid' WHEN r < 68 THEN 'Error' WHEN r < 72 THEN 'PartiallyPaid'
                   WHEN r < 84 THEN 'Sent' WHEN r < 88 THEN 'Resent' WHEN r < 94 THEN 'Expired' WHEN r < 97 THEN 'Withdrawn' ELSE 'Cancelled' END,
              CASE WHEN r >= 3 THEN created END,
              CASE WHEN r BETWEEN 3 AND 65 THEN least(created + delay, now()) END,
              created, created
       FROM (${request}) s`,
      [businessId, payers, start, end, NAMES],
    );
    await client.query(
      `INSERT INTO payments (business_id, id, request_id, method, instrument, amount_cents, fee_cents, state, payer_email,
                             created_at, processed_at, settled_at, returned_at, failure_reason)
       SELECT $1, 'pay_r' || $1 || '_' || g, 'req_r' || $1 || '_' || g, method,
              CASE WHEN method = 'card' THEN 'Visa •••• 4242' ELSE 'Checking •••• 6789' END,
              paid, CASE WHEN method = 'card' THEN least((paid * 290 + 5000) / 10000 + 30, paid - 1) ELSE least((paid * 80 + 5000) / 10000, 500) END,
              CASE WHEN r BETWEEN 66 AND 67 THEN 'Returned' ELSE 'Processed' END, 'payer' || p || '@' || $1 || '.example',
              least(created + delay, now()), least(created + delay, now()),
              CASE WHEN r BETWEEN 66 AND 67 THEN least(created + delay + interval '2 days', now()) END,
              CASE WHEN r BETWEEN 66 AND 67 THEN least(created + delay + interval '3 days', now()) END,
              CASE WHEN r BETWEEN 66 AND 67 THEN 'R01: insufficient funds' END
       FROM (SELECT *, CASE WHEN r BETWEEN 68 AND 71 THEN amount / 2 ELSE amount END AS paid,
                       CASE WHEN r BETWEEN 66 AND 67 OR g % 3 = 0 THEN 'bank_account' ELSE 'card' END AS method
             FROM (${request}) s WHERE r BETWEEN 3 AND 71) t`,
      [businessId, payers, start, end],
    );
    // One paid request in 50 has half its payment refunded a day later (ADR 051), the fee kept.
    await client.query(
      `INSERT INTO refunds (business_id, id, request_id, payment_id, amount_cents, reason, state, created_at, processed_at)
       SELECT $1, 'rfd_r' || $1 || '_' || g, 'req_r' || $1 || '_' || g, 'pay_r' || $1 || '_' || g, amount / 2, 'requested_by_payer', 'Succeeded',
              least(created + delay + interval '1 day', now()), least(created + delay + interval '1 day', now())
       FROM (${request}) s WHERE r BETWEEN 3 AND 65 AND g % 50 = 7`,
      [businessId, payers, start, end],
    );
    // Another paid request in 50 is disputed 4 days after its payment, with the $15.00 fee; half of
    // those are won 10 days later (the amount back, the fee kept), the rest lost.
    await client.query(
      `INSERT INTO disputes (business_id, id, request_id, payment_id, processor_dispute_id, amount_cents, fee_cents, reason, state,
                             evidence_due_at, created_at, closed_at)
       SELECT $1, 'dsp_r' || $1 || '_' || g, 'req_r' || $1 || '_' || g, 'pay_r' || $1 || '_' || g, 'dp_r' || $1 || '_' || g, amount, 1500, 'fraudulent',
              CASE WHEN g % 100 = 23 THEN 'Won' ELSE 'Lost' END,
              least(created + delay + interval '25 days', now()), least(created + delay + interval '4 days', now()),
              least(created + delay + interval '14 days', now())
       FROM (${request}) s WHERE r BETWEEN 3 AND 65 AND g % 50 = 23`,
      [businessId, payers, start, end],
    );
  }
}

/** The business's calendar: its time zone, today, yesterday, last month's first and last days, and the year to today. */
async function calendar(client, businessId) {
  const { rows } = await client.query(
    `SELECT time_zone, today::text, (date_trunc('month', today) - interval '1 month')::date::text AS month_from,
            (date_trunc('month', today) - interval '1 day')::date::text AS month_to, (today - interval '1 year' + interval '1 day')::date::text AS year_from,
            (today - 1)::text AS yesterday
     FROM (SELECT time_zone, (now() AT TIME ZONE time_zone)::date AS today FROM businesses WHERE id = $1) b`,
    [businessId],
  );
  return rows[0];
}

/**
 * Each calendar day's figures from `from` to `to`, recomputed from the requests and payments (the
 * business's days) as packages/contract/src/reports/schemas.ts defines them: billed by first send,
 * collected by processed_at, returned by returned_at, refunded by a succeeded refund's processed_at,
 * disputed by a dispute's opening less a won one's amount on its closing (its fee in the fees),
 * outstanding what open requests billed that day still owe.
 */
async function daysFromRows(client, businessId, from, to) {
  const { rows } = await client.query(
    `WITH b AS (SELECT time_zone AS tz FROM businesses WHERE id = $1),
     billed AS (
       SELECT (r.first_sent_at AT TIME ZONE b.tz)::date AS day, count(*) AS n, sum(r.amount_cents) AS cents,
              sum(r.amount_cents - r.amount_paid_cents) FILTER (WHERE r.state IN ('Sent', 'Resent', 'Accepted', 'PartiallyPaid', 'Error')) AS owed
       FROM payment_requests r, b
       WHERE r.business_id = $1 AND r.first_sent_at >= $2::date - 2 AND r.first_sent_at < $3::date + 2
         AND (r.first_sent_at AT TIME ZONE b.tz)::date BETWEEN $2 AND $3 GROUP BY 1),
     collected AS (
       SELECT (p.processed_at AT TIME ZONE b.tz)::date AS day, count(*) AS n, sum(p.amount_cents) AS cents, sum(p.fee_cents) AS fees
       FROM payments p, b WHERE p.business_id = $1 AND p.processed_at IS NOT NULL AND p.state IN ('Processed', 'Returned')
         AND p.processed_at >= $2::date - 2 AND p.processed_at < $3::date + 2 AND (p.processed_at AT TIME ZONE b.tz)::date BETWEEN $2 AND $3 GROUP BY 1),
     returned AS (
       SELECT (p.returned_at AT TIME ZONE b.tz)::date AS day, count(*) AS n, sum(p.amount_cents) AS cents, sum(p.fee_cents) AS fees
       FROM payments p, b WHERE p.business_id = $1 AND p.state = 'Returned' AND (p.returned_at AT TIME ZONE b.tz)::date BETWEEN $2 AND $3 GROUP BY 1),
     refunded AS (
       SELECT (f.processed_at AT TIME ZONE b.tz)::date AS day, count(*) AS n, sum(f.amount_cents) AS cents, sum(f.fee_returned_cents) AS fees
       FROM refunds f, b WHERE f.business_id = $1 AND f.state = 'Succeeded' AND (f.processed_at AT TIME ZONE b.tz)::date BETWEEN $2 AND $3 GROUP BY 1),
     disputed AS (
       SELECT day, sum(n) AS n, sum(cents) AS cents, sum(fees) AS fees FROM (
         SELECT (x.created_at AT TIME ZONE b.tz)::date AS day, 1 AS n, x.amount_cents AS cents, x.fee_cents AS fees FROM disputes x, b WHERE x.business_id = $1
         UNION ALL
         SELECT (x.closed_at AT TIME ZONE b.tz)::date, 0, -x.amount_cents, -x.fee_returned_cents FROM disputes x, b
         WHERE x.business_id = $1 AND x.state = 'Won' AND x.closed_at IS NOT NULL) u
       WHERE day BETWEEN $2 AND $3 GROUP BY 1)
     SELECT d::date::text AS day,
            coalesce(bi.n, 0)::bigint AS "billedCount", coalesce(bi.cents, 0)::bigint AS "billedCents",
            coalesce(c.n, 0)::bigint AS "collectedCount", coalesce(c.cents, 0)::bigint AS "collectedCents",
            coalesce(rt.n, 0)::bigint AS "returnedCount", coalesce(rt.cents, 0)::bigint AS "returnedCents",
            coalesce(rf.n, 0)::bigint AS "refundedCount", coalesce(rf.cents, 0)::bigint AS "refundedCents",
            coalesce(dp.n, 0)::bigint AS "disputedCount", coalesce(dp.cents, 0)::bigint AS "disputedCents",
            (coalesce(c.fees, 0) - coalesce(rt.fees, 0) - coalesce(rf.fees, 0) + coalesce(dp.fees, 0))::bigint AS "feesCents",
            (coalesce(c.cents, 0) - coalesce(rt.cents, 0) - coalesce(rf.cents, 0) - coalesce(dp.cents, 0)
              - coalesce(c.fees, 0) + coalesce(rt.fees, 0) + coalesce(rf.fees, 0) - coalesce(dp.fees, 0))::bigint AS "netCents",
            coalesce(bi.owed, 0)::bigint AS "outstandingCents"
     FROM generate_series($2::date, $3::date, interval '1 day') d
     LEFT JOIN billed bi ON bi.day = d::date LEFT JOIN collected c ON c.day = d::date LEFT JOIN returned rt ON rt.day = d::date
     LEFT JOIN refunded rf ON rf.day = d::date LEFT JOIN disputed dp ON dp.day = d::date
     ORDER BY 1`,
    [businessId, from, to],
  );
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'day' ? v : Number(v)])));
}

async function getReport(url, headers) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}: ${text.slice(0, 600)}`);
  return { body: JSON.parse(text).data, bytes: Buffer.byteLength(text) };
}

/** Throws unless the report (by day) has one bucket per day and each bucket and the totals agree with the raw rows to the cent. */
async function checkReport(client, tenant, report, name) {
  const days = await daysFromRows(client, tenant.businessId, report.from, report.to);
  if (report.buckets.length !== days.length) throw new Error(`${name}: ${report.buckets.length} buckets for ${days.length} days`);
  const totals = Object.fromEntries(CHECKED.map((key) => [key, days.reduce((sum, d) => sum + d[key], 0)]));
  const differs = (a, b) => CHECKED.filter((key) => a[key] !== b[key]).map((key) => `${key} ${a[key]} ≠ ${b[key]}`);
  days.forEach((day, i) => {
    const bucket = report.buckets[i];
    const wrong = bucket.from === day.day ? differs(bucket, day) : [`the bucket is ${bucket.from}`];
    if (wrong.length) throw new Error(`${name}, ${day.day}: the report does not agree with the rows: ${wrong.join(', ')}`);
  });
  const wrong = differs(report.totals, totals);
  if (wrong.length) throw new Error(`${name}, totals: the report does not agree with the rows: ${wrong.join(', ')}`);
  if (report.from === report.to) {
    // A single day's hours (23, 24 or 25 on the business's clock) add up to the day.
    if (report.hours.length < 23 || report.hours.length > 25) throw new Error(`${name}: ${report.hours.length} hours`);
    const hours = ['billedCount', 'billedCents', 'collectedCount', 'collectedCents'].filter(
      (key) => report.hours.reduce((sum, h) => sum + h[key], 0) !== totals[key],
    );
    if (hours.length) throw new Error(`${name}: the hours do not add up to the day: ${hours.join(', ')}`);
  }
  if (totals.collectedCount === 0 || totals.billedCount === 0) throw new Error(`${name}: nothing billed or collected in ${report.from} – ${report.to}`);
  return totals;
}

export async function run() {
  // The web process alone, as beside `npm run worker`: the seeded requests past their expiry would
  // keep the jobs expiring them while the reports are checked and timed.
  const tay = await startTay({ env: { JOBS_IN_PROCESS: 'false' } });
  const db = new pg.Client(tay.connection);
  db.on('error', () => {});
  try {
    await db.connect();
    const sizes = [
      { label: count(SMALL_ROWS), rows: SMALL_ROWS, payers: 1_000, email: 'bench-reports-small@example.com' },
      { label: count(LARGE_ROWS), rows: LARGE_ROWS, payers: 10_000, email: 'bench-reports-large@example.com' },
    ];
    const kept = (await db.query(`SELECT 1 FROM users WHERE email = $1`, [sizes[1].email])).rowCount > 0;
    if (kept) {
      // A database kept from an earlier run (BENCH_KEEP_DB=1): sign in again, seed nothing.
      for (const size of sizes) size.tenant = await signedInTenant(tay, size.email);
      console.log('Reusing the seeded database');
    } else {
      for (const size of sizes) size.tenant = await approvedTenant(tay, size.email);
      for (const size of sizes) {
        const started = performance.now();
        await seed(db, size.tenant.businessId, size.rows, size.payers);
        size.seeded = (performance.now() - started) / 1000;
        console.log(`Seeded ${size.label} requests on ${tay.database} in ${size.seeded.toFixed(1)} s, the rollup kept by its triggers`);
      }
      await db.query('ANALYZE');
      if (tay.database === 'postgres') await db.query('CHECKPOINT');
    }
    for (const size of sizes) {
      const { rows } = await db.query(
        `SELECT (SELECT count(*) FROM payment_requests WHERE business_id = $1)::int AS requests,
                (SELECT count(*) FROM payments WHERE business_id = $1)::int AS payments,
                (SELECT count(*) FROM report_days WHERE business_id = $1)::int AS days`,
        [size.tenant.businessId],
      );
      Object.assign(size, rows[0]);
    }
    const trip = await roundTrip(db);

    const cal = await calendar(db, sizes[0].tenant.businessId);
    const reports = [
      { name: `monthly (${cal.month_from} – ${cal.month_to}, by day)`, path: `billing?from=${cal.month_from}&to=${cal.month_to}&groupBy=day`, billing: true },
      { name: `custom (${cal.year_from} – ${cal.today}, by day)`, path: `billing?from=${cal.year_from}&to=${cal.today}&groupBy=day`, billing: true },
      // One day's hours come from that day's raw rows (ADR 039): they grow with the day's rows.
      { name: `daily (${cal.yesterday}, by hour)`, path: `billing?from=${cal.yesterday}&to=${cal.yesterday}&groupBy=day`, billing: true },
      { name: 'overview', path: 'overview' },
    ];
    const url = (size, report) => `${tay.baseUrl}/api/businesses/${size.tenant.businessId}/reports/${report.path}`;
    const headers = (size) => ({ authorization: `Bearer ${size.tenant.token}` });

    // What is timed is right: every day of the billing reports agrees with the rows.
    const checked = {};
    for (const size of sizes) {
      for (const report of reports) {
        const { body } = await getReport(url(size, report), headers(size));
        if (report.billing) checked[`${size.label} ${report.name}`] = await checkReport(db, size.tenant, body, `${size.label} requests, ${report.name}`);
      }
    }

    const took = new Map();
    const bytes = new Map();
    for (let round = 0; round < WARM_UP + CALLS; round++) {
      for (const report of reports) {
        for (const size of round % 2 ? [...sizes].reverse() : sizes) {
          const t = performance.now();
          const { bytes: n } = await getReport(url(size, report), headers(size));
          const ms = performance.now() - t;
          if (round < WARM_UP) continue;
          const key = `${size.label}|${report.name}`;
          took.set(key, [...(took.get(key) ?? []), ms]);
          bytes.set(key, n);
        }
      }
    }
    const at = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];
    const table = [];
    for (const report of reports) {
      for (const size of sizes) {
        const values = took.get(`${size.label}|${report.name}`);
        table.push({
          requests: size.label,
          report: report.name,
          'median ms': round(median(values), 2),
          'p95 ms': round(at(values, 0.95), 2),
          'min ms': round(Math.min(...values), 2),
          kB: round(bytes.get(`${size.label}|${report.name}`) / 1024),
        });
      }
    }
    const summary = reports.map((report) => {
      const [small, large] = sizes.map((size) => median(took.get(`${size.label}|${report.name}`)));
      return {
        report: report.name,
        [`median ${sizes[1].label} / ${sizes[0].label}`]: `${(large / small).toFixed(2)}×`,
        goal: '≤ 2×',
        holds: large / small <= 2,
      };
    });

    console.log(
      `\nBilling reports on ${tay.database}, ${CALLS} calls each (after ${WARM_UP} to warm up), one at a time, the two businesses in turns; time zone ${cal.time_zone}`,
    );
    console.table(
      sizes.map(({ label, requests, payments, days, seeded }) => ({
        business: label,
        requests,
        payments,
        'report_days rows': days,
        'seeded in s': seeded ? round(seeded) : null,
      })),
    );
    console.table(table);
    console.log('\nGoal (issue 23)');
    console.table(summary);
    const large = checked[`${sizes[1].label} ${reports[0].name}`];
    console.log(
      `Every day of the three billing reports (and the single day's hours), for both businesses, agrees with the raw rows to the cent (billed, collected, returned, refunded, disputed, fees, net, outstanding). ` +
        `Last month for the ${sizes[1].label}: ${count(large.billedCount)} billed, ${count(large.collectedCount)} collected, ${count(large.returnedCount)} returned, ${count(large.refundedCount)} refunded, ${count(large.disputedCount)} disputed. ` +
        `SELECT 1 round trip: p50 ${trip.p50} ms, p99 ${trip.p99} ms.`,
    );
    return { table, summary };
  } catch (error) {
    console.error('The reports benchmark failed:', error);
    throw error;
  } finally {
    await db.end().catch(() => {});
    await tay.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
