import { expect } from 'vitest';
import type { Integration, IntegrationProvider } from '@tay/contract';
import type { ApprovedBusiness } from './approved-business';
import { call } from './requests';
import { eventually, type TestApp } from './test-app';

/**
 * Drives an accounting provider's stand-in as a browser would (ADR 041): Connect → the consent
 * page's form → Connect → our callback → the integrations page. Answers where the callback sent
 * the browser, decoded.
 */
export async function connectThroughConsent(
  t: TestApp,
  biz: Pick<ApprovedBusiness, 'businessId' | 'token'>,
  provider: IntegrationProvider,
  company = 'Sandbox Company',
  decision: 'Connect' | 'Cancel' = 'Connect',
): Promise<{ location: URL; callback: URL; cookie: string }> {
  const { callback, cookie } = await consentRedirect(t, biz, provider, company, decision);
  const back = await fetch(callback, { redirect: 'manual', headers: { cookie } });
  expect(back.status, await back.clone().text()).toBe(303);
  return { location: new URL(back.headers.get('location')!, t.runtime.config.publicUrl), callback, cookie };
}

/**
 * Up to the provider's redirect to our callback (not followed): the URL with `code` and `state`,
 * and the cookie Connect gave the browser (the callback wants it back: the same browser).
 */
export async function consentRedirect(
  t: TestApp,
  biz: Pick<ApprovedBusiness, 'businessId' | 'token'>,
  provider: IntegrationProvider,
  company = 'Sandbox Company',
  decision: 'Connect' | 'Cancel' = 'Connect',
): Promise<{ callback: URL; cookie: string }> {
  const started = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/integrations/${provider}/connect`, biz.token);
  expect(started.statusCode, started.body).toBe(200);
  const setCookie = String(started.headers['set-cookie'] ?? '');
  expect(setCookie).toMatch(new RegExp(`^tay_oauth_${provider}=[\\w-]+; Path=/api/integrations/${provider}/callback; HttpOnly; SameSite=Lax`));
  const cookie = setCookie.split(';')[0]!;
  const consentUrl = new URL(started.json().data.url as string);
  const page = await fetch(consentUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  expect(form, 'the consent page has a form').toBeTruthy();
  const body = new URLSearchParams();
  for (const input of form![2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (!name) continue;
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    const isCompany = /type="text"/i.test(input[0]) || !/type="/i.test(input[0]);
    body.set(name, decode(isCompany ? company : value));
  }
  const button = [...form![2]!.matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/gi)].find((b) => b[2]!.trim() === decision);
  expect(button, `a "${decision}" button`).toBeTruthy();
  const buttonName = /name="([^"]*)"/.exec(button![1]!)?.[1];
  if (buttonName) body.set(buttonName, /value="([^"]*)"/.exec(button![1]!)?.[1] ?? '');
  const action = new URL(decode(form![1]!), consentUrl);
  const decided = await fetch(action, { method: 'POST', body, redirect: 'manual' });
  expect(decided.status, await decided.clone().text()).toBeGreaterThanOrEqual(300);
  expect(decided.status).toBeLessThan(400);
  return { callback: new URL(decided.headers.get('location')!, consentUrl), cookie };
}

const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

export async function integrationOf(t: TestApp, biz: Pick<ApprovedBusiness, 'businessId' | 'token'>, provider: IntegrationProvider): Promise<Integration> {
  const res = await call(t.app, 'GET', `/api/businesses/${biz.businessId}/integrations`, biz.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Integration[]).find((i) => i.provider === provider)!;
}

/** Sync now, then wait until the run (and any follow-on run) has finished. */
export async function syncNow(
  t: TestApp,
  biz: Pick<ApprovedBusiness, 'businessId' | 'token'>,
  provider: IntegrationProvider,
  timeoutMs = 20_000,
): Promise<Integration> {
  const res = await call(t.app, 'POST', `/api/businesses/${biz.businessId}/integrations/${provider}/sync`, biz.token);
  expect(res.statusCode, res.body).toBe(202);
  return settled(t, biz, provider, timeoutMs);
}

export function settled(
  t: TestApp,
  biz: Pick<ApprovedBusiness, 'businessId' | 'token'>,
  provider: IntegrationProvider,
  timeoutMs = 20_000,
): Promise<Integration> {
  return eventually(async () => {
    const i = await integrationOf(t, biz, provider);
    return i.syncState === 'idle' && i ? i : undefined;
  }, timeoutMs);
}

/** The stand-in's own test API: what the provider's company holds, and its switches. */
export function standIn(t: TestApp, provider: IntegrationProvider) {
  const base = `${t.runtime.config.publicUrl}/sandbox/${provider}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return {
    async company(name: string): Promise<string> {
      return (await post('/companies', { name })).accountId as string;
    },
    switches: (body: Record<string, unknown>) => post('/switches', body),
    async records(accountId: string, type: 'customer' | 'invoice' | 'payment' | 'refund'): Promise<Record<string, unknown>[]> {
      const res = await fetch(`${base}/records?${new URLSearchParams({ accountId, type })}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as unknown;
      if (Array.isArray(body)) return body as Record<string, unknown>[];
      const o = body as Record<string, unknown>;
      return (o.records ?? o.items ?? o.data) as Record<string, unknown>[];
    },
  };
}
