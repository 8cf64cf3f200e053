// The payer's pages of an approved business, made through the API as the portal makes them: a
// request to pay sent to a payer (its link read from the outbox, as no mail server runs here) and
// a QR code.
import pg from 'pg';

async function call(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, origin: baseUrl },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 400)}`);
  return JSON.parse(text).data;
}

const inDays = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** `{ payPath, qrPath }`: the pay page of a request sent to a new payer, and a fixed-amount QR code's page. */
export async function payerPages(tay, { token, businessId }, email = 'payer@bench.example') {
  const payer = await call(tay.baseUrl, token, 'POST', `/businesses/${businessId}/payers`, { firstName: 'Pat', lastName: 'Payer', email });
  await call(tay.baseUrl, token, 'POST', `/businesses/${businessId}/payment-requests`, {
    payerId: payer.payerId,
    amountCents: 4_250,
    memo: 'Flute, July',
    dueDate: inDays(7),
    mode: 'send',
  });
  const db = new pg.Client(tay.connection);
  db.on('error', () => {});
  await db.connect();
  let payPath = null;
  try {
    for (let i = 0; i < 100 && !payPath; i++) {
      const { rows } = await db.query('SELECT text_body FROM mail_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1', [email]);
      payPath = rows[0]?.text_body.match(/\/pay\/[\w-]+/)?.[0] ?? null;
      if (!payPath) await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await db.end().catch(() => {});
  }
  if (!payPath) throw new Error(`No pay link was e-mailed to ${email}`);
  const code = await call(tay.baseUrl, token, 'POST', `/businesses/${businessId}/qr-codes`, {
    label: 'Parking, one day',
    amountMode: 'fixed',
    amountCents: 800,
    memo: 'Lot B',
    askName: 'off',
    askEmail: 'off',
    askPhone: 'off',
  });
  return { payPath, qrPath: new URL(code.payUrl).pathname };
}
