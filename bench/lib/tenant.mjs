// Creates an approved business through the real code paths: the operator command makes the
// user, the API sets the password, profile and business, and the operator approves it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { root } from './server.mjs';

const run = promisify(execFile);

async function ops(env, ...args) {
  const { stdout } = await run('node', ['scripts/start.mjs', '--ops', ...args], { cwd: root, env: { ...env, LOG_LEVEL: 'warn' } });
  return stdout;
}

async function call(baseUrl, method, path, token, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: baseUrl, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return { json: text ? JSON.parse(text) : null, headers: res.headers };
}

export async function approvedTenant(tay, email) {
  const out = await ops(tay.env, 'create-user', '--email', email, '--first-name', 'Bench');
  const temporary = out.match(/Temporary password: (\S+)/)[1];
  const signIn = await call(tay.baseUrl, 'POST', '/api/auth/sign-in/email', null, { email, password: temporary });
  const token = signIn.headers.get('set-auth-token');
  await call(tay.baseUrl, 'POST', '/api/auth/complete-new-password', token, { newPassword: 'Bench-Password-Strong-1' });
  await call(tay.baseUrl, 'PATCH', '/api/user', token, { firstName: 'Bench', lastName: 'Owner', mobileNumber: '+14155552671' });
  const created = await call(tay.baseUrl, 'POST', '/api/businesses', token, { businessName: `Bench ${email}`, entityType: 'standard' });
  const businessId = created.json.data.businessId;
  await call(tay.baseUrl, 'PATCH', `/api/businesses/${businessId}/update`, token, {
    businessProfile: { legalName: 'Bench LLC', ein: '12-3456789', mcc: '8299', corporateStructure: 'llc', phone: '(555) 123-4567', email: 'bench@example.com' },
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    owners: [
      { firstName: 'Bench', lastName: 'Owner', title: 'CEO', ownershipPercent: 100, dateOfBirth: '1980-01-01', ssnLast4: '1234', email: 'owner@example.com' },
    ],
  });
  await call(tay.baseUrl, 'POST', `/api/businesses/${businessId}/bank-accounts`, token, {
    routingNumber: '123456780',
    accountNumber: '000123456789',
    confirmAccountNumber: '000123456789',
    accountType: 'checking',
    accountHolderName: 'Bench LLC',
  });
  await call(tay.baseUrl, 'PATCH', `/api/businesses/${businessId}/update/submit`, token, {});
  await ops(tay.env, 'approve-business', businessId);
  return { token, businessId };
}

/** A tenant made by an earlier run: signs in with the password {@link approvedTenant} chose. */
export async function signedInTenant(tay, email) {
  const signIn = await call(tay.baseUrl, 'POST', '/api/auth/sign-in/email', null, { email, password: 'Bench-Password-Strong-1' });
  const token = signIn.headers.get('set-auth-token');
  const user = await call(tay.baseUrl, 'GET', '/api/user', token);
  return { token, businessId: user.json.data.businesses[0].businessId };
}
