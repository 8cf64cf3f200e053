import type { FastifyInstance, FastifyReply } from 'fastify';
import type { IntegrationProvider } from '@tay/contract';
import type { ProviderSettings } from './port';
import { findOrCreateCompany, issueCode, type StandInDb } from './standin-store';

/**
 * The stand-ins' consent page: where a provider would ask its user to pick a company and allow
 * Tay in. Plain server-rendered HTML with no script (the CSP forbids inline code, and a form
 * needs none). It checks the client and the redirect before anything else: an unknown client or a
 * redirect off this server answers an error page, never a redirect.
 */

export interface ConsentOptions {
  db: StandInDb;
  provider: IntegrationProvider;
  settings: ProviderSettings;
  /** This server's public origin: the only place a code may be sent back to. */
  publicUrl: string;
  /** The page's path inside the stand-in's prefix (`/connect/oauth2`, `/oauth/authorize`). */
  path: string;
  providerName: string;
  /** QuickBooks names the company in the callback (`realmId`); FreshBooks does not. */
  realmIdInRedirect: boolean;
}

export const DEFAULT_COMPANY_NAME = 'Sandbox Company';
const MAX_NAME = 100;

type Fields = Record<string, string | undefined>;

interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  codeChallenge: string | null;
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f4f5f7; color: #1f2328; line-height: 1.5; }
  main { max-width: 28rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; }
  h1 { font-size: 1.375rem; margin: 0 0 .75rem; }
  p { margin: 0 0 1rem; }
  .note { font-size: .875rem; color: #57606a; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=text] { width: 100%; padding: .5rem .625rem; font: inherit; border: 1px solid #8c959f; border-radius: 6px; }
  .error { color: #b42318; font-size: .875rem; margin: .25rem 0 0; }
  .actions { display: flex; flex-wrap: wrap; gap: .75rem; margin-top: 1.25rem; }
  button { flex: 1 1 8rem; min-height: 2.75rem; font: inherit; font-weight: 600; border-radius: 6px; cursor: pointer; }
  .connect { background: #1a7f37; color: #fff; border: 1px solid #1a7f37; }
  .cancel { background: #fff; color: #1f2328; border: 1px solid #8c959f; }
  @media (max-width: 480px) { main { margin: 0; border: 0; border-radius: 0; min-height: 100vh; } }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function errorPage(reply: FastifyReply, providerName: string, reason: string) {
  const title = `${providerName} stand-in: this request cannot be completed`;
  return sendPage(
    reply,
    400,
    page(
      title,
      `<h1>This connection request cannot be completed</h1>
<p>${escapeHtml(reason)}</p>
<p class="note">This is Tay's built-in stand-in for ${escapeHtml(providerName)}. Start again from Tay's integrations page.</p>`,
    ),
  );
}

function consentPage(options: ConsentOptions, request: AuthorizationRequest, companyName: string, problem: string | null): string {
  const { providerName } = options;
  const hidden = (name: string, value: string | null) =>
    value === null || value === '' ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return page(
    `Connect Tay to ${providerName} (stand-in)`,
    `<h1>Connect Tay to ${escapeHtml(providerName)}</h1>
<p>Tay asks to create and update customers, invoices and payments in your ${escapeHtml(providerName)} company.</p>
<p class="note">This is Tay's built-in stand-in for ${escapeHtml(providerName)}, used because no ${escapeHtml(providerName)} app is configured on this server. Nothing leaves this server. The same company name is the same company: connecting it again keeps its records.</p>
<form method="post" action="${escapeHtml(new URL(options.settings.authUrl).pathname)}">
${hidden('client_id', request.clientId)}
${hidden('redirect_uri', request.redirectUri)}
${hidden('state', request.state)}
${hidden('scope', request.scope)}
${hidden('response_type', 'code')}
${request.codeChallenge ? `${hidden('code_challenge', request.codeChallenge)}${hidden('code_challenge_method', 'S256')}` : ''}
<label for="company_name">Company name</label>
<input type="text" id="company_name" name="company_name" value="${escapeHtml(companyName)}" required maxlength="${MAX_NAME}" autocomplete="organization"${
      problem ? ' aria-invalid="true" aria-describedby="company_name_error"' : ''
    }>
${problem ? `<p class="error" id="company_name_error">${escapeHtml(problem)}</p>` : ''}
<div class="actions">
<button type="submit" name="decision" value="connect" class="connect">Connect</button>
<button type="submit" name="decision" value="cancel" class="cancel" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}

/** The request's client and redirect, checked; a string says why it is refused. */
function checkRequest(options: ConsentOptions, fields: Fields): AuthorizationRequest | string {
  const clientId = fields.client_id ?? '';
  if (clientId !== options.settings.clientId)
    return clientId ? `The client_id "${clientId}" is not an app this stand-in knows.` : 'The request has no client_id.';
  const redirect = fields.redirect_uri ?? '';
  let target: URL;
  try {
    target = new URL(redirect);
  } catch {
    return redirect ? 'The redirect_uri is not a valid address.' : 'The request has no redirect_uri.';
  }
  const home = new URL(options.publicUrl);
  const basePath = home.pathname.replace(/\/$/, '');
  if (target.origin !== home.origin || !(target.pathname === basePath || target.pathname.startsWith(`${basePath}/`)) || target.hash) {
    return `The redirect_uri must be an address on this server (${home.origin}${basePath}).`;
  }
  if ((fields.response_type ?? 'code') !== 'code') return `response_type must be "code" (it was "${fields.response_type}").`;
  const codeChallenge = fields.code_challenge || null;
  if (codeChallenge && (fields.code_challenge_method ?? 'plain') !== 'S256') return 'code_challenge_method must be "S256".';
  if (codeChallenge && !/^[\w-]{43,128}$/.test(codeChallenge)) return 'code_challenge must be a base64url SHA-256 digest.';
  if ((fields.state ?? '').length > 500) return 'The state is longer than 500 characters.';
  return { clientId, redirectUri: redirect, state: fields.state ?? '', scope: fields.scope ?? '', codeChallenge };
}

function redirectTo(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== '') url.searchParams.set(name, value);
  return url.toString();
}

export function registerConsent(app: FastifyInstance, options: ConsentOptions): void {
  app.get(options.path, { schema: { hide: true } }, async (request, reply) => {
    const checked = checkRequest(options, request.query as Fields);
    if (typeof checked === 'string') return errorPage(reply, options.providerName, checked);
    return sendPage(reply, 200, consentPage(options, checked, DEFAULT_COMPANY_NAME, null));
  });

  app.post(options.path, { schema: { hide: true } }, async (request, reply) => {
    const fields = (request.body ?? {}) as Fields;
    const checked = checkRequest(options, fields);
    if (typeof checked === 'string') return errorPage(reply, options.providerName, checked);
    if (fields.decision !== 'connect') return reply.redirect(redirectTo(checked.redirectUri, { error: 'access_denied', state: checked.state }), 303);
    const name = (fields.company_name ?? '').trim();
    if (!name || name.length > MAX_NAME) {
      const problem = name ? `Keep the company name to ${MAX_NAME} characters.` : 'Enter a company name.';
      return sendPage(reply, 400, consentPage(options, checked, fields.company_name ?? '', problem));
    }
    const company = await findOrCreateCompany(options.db, options.provider, name);
    const code = await issueCode(options.db, {
      companyId: company.id,
      clientId: checked.clientId,
      redirectUri: checked.redirectUri,
      codeChallenge: checked.codeChallenge,
    });
    const params: Record<string, string> = { code, state: checked.state };
    if (options.realmIdInRedirect) params.realmId = company.id;
    return reply.redirect(redirectTo(checked.redirectUri, params), 303);
  });
}
