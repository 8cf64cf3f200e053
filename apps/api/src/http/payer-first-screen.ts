import {
  formatMoney,
  formatZonedDateTime,
  payDueLine,
  payHeadline,
  payRefundLine,
  payStatusTitle,
  QR_NOT_PAYABLE,
  QR_STATUS_TITLES,
  qrPayable,
  type PaymentReceipt,
  type PublicPayPage,
  type PublicQrPage,
} from '@tay/contract';

/**
 * A payer's first screen (ADR 047): what the pay page, the QR code's page and the receipt say,
 * written by the server into the page's first HTML — the business, the amount, the memo, the due
 * date, the state and the ways to pay — so a payer on a slow phone reads it before any script
 * arrives, and with none. The words are the contract's (`packages/contract/src/payer-pages/words.ts`),
 * the ones the web app's pages show; the web app takes over from the data embedded beside it
 * (`apps/web/src/lib/first-screen.ts`) without asking the API again.
 */
export interface FirstScreen {
  status: number;
  /** The document's title, as the web app's page sets it. */
  title: string;
  /** The screen's HTML: every text in it escaped here. */
  html: string;
  /** What the web app's page reads instead of calling the API: its query's kind and key, and the API's answer. */
  data?: { kind: 'pay' | 'qr' | 'receipt'; key: string; value: unknown };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** JSON inside a `<script>` element: nothing in it can close the element or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const text = (value: string, tag = 'p', cls?: string) => `<${tag}${cls ? ` class="${cls}"` : ''}>${escapeHtml(value)}</${tag}>`;

/** The business at the top: its logo (when it has one) and its name, and a line under it. */
function businessHeader(name: string, logoUrl: string | null, line: string): string {
  const logo = logoUrl ? `<img class="fs-logo" src="${escapeHtml(logoUrl)}" alt="${escapeHtml(`${name} logo`)}" width="48" height="48">` : '';
  return `<div class="fs-business">${logo}<div><p class="fs-name">${escapeHtml(name)}</p>${text(line, 'p', 'fs-dim')}</div></div>`;
}

const notice = (title: string, body: string, tone: 'done' | 'info' | 'off') =>
  `<div class="fs-notice fs-${tone}" role="status"><p class="fs-strong">${escapeHtml(title)}</p>${body ? text(body) : ''}</div>`;

/**
 * The ways to pay, and why they need the page's script: the card field is the processor's. Said
 * in words true while the script loads and without one (a browser that parses with scripting on
 * shows no `<noscript>`, even when it runs none).
 */
export const PAY_FIELDS_NOTE =
  'The card and bank account fields open when the page has finished loading. If they do not, turn on JavaScript in your browser: they come from our payment processor.';
const payChoices = (what: string) =>
  `<div class="fs-choices"><p class="fs-strong">${escapeHtml(what)}</p><p class="fs-dim">Pay by card or from a bank account.</p><p class="fs-dim">${PAY_FIELDS_NOTE}</p></div>`;

export function payFirstScreen(token: string, data: PublicPayPage): FirstScreen {
  const headline = payHeadline(data);
  const refund = payRefundLine(data);
  const parts = [
    businessHeader(data.businessName, data.businessLogoUrl, `requests a payment from ${data.payerName} · ${data.referenceNumber}`),
    text(headline.title, 'h1', 'fs-amount'),
    headline.caption ? text(headline.caption, 'p', 'fs-dim') : '',
    refund ? text(refund, 'p', 'fs-strong') : '',
    data.forStudent ? text(data.forStudent, 'p', 'fs-strong') : '',
    data.forPatient ? text(data.forPatient, 'p', 'fs-strong') : '',
    data.memo ? text(data.memo, 'p', 'fs-memo') : '',
    text(payDueLine(data), 'p', 'fs-dim'),
  ];
  const state =
    data.status === 'payable'
      ? payChoices(`Pay ${formatMoney(data.remainingCents)}${data.allowPartial ? ', or part of it' : ''}`)
      : notice(payStatusTitle(data), data.statusMessage ?? '', data.status === 'paid' ? 'done' : data.status === 'processing' ? 'info' : 'off');
  return {
    status: 200,
    title: `Pay ${data.businessName}`,
    html: `<section class="fs-card">${parts.join('')}</section>${state}`,
    data: { kind: 'pay', key: token, value: data },
  };
}

export function qrFirstScreen(code: string, data: PublicQrPage): FirstScreen {
  const fixed = data.amountMode === 'fixed' && data.amountCents !== null;
  const parts = [
    businessHeader(data.businessName, data.businessLogoUrl, 'asks for a payment by QR code'),
    text(data.label, 'h1', 'fs-title'),
    data.memo ? text(data.memo, 'p', 'fs-memo') : '',
    qrPayable(data) && fixed ? `<p class="fs-dim">Amount</p>${text(formatMoney(data.amountCents!), 'p', 'fs-amount')}` : '',
  ];
  const state = qrPayable(data)
    ? payChoices(fixed ? `Pay ${formatMoney(data.amountCents!)}` : 'Enter the amount you pay')
    : notice(data.status === 'payable' ? QR_STATUS_TITLES.unavailable : QR_STATUS_TITLES[data.status], data.statusMessage ?? QR_NOT_PAYABLE, 'off');
  return {
    status: 200,
    title: `Pay ${data.businessName}`,
    html: `<section class="fs-card">${parts.join('')}</section>${state}`,
    data: { kind: 'qr', key: code, value: data },
  };
}

export function receiptFirstScreen(key: string, r: PaymentReceipt): FirstScreen {
  const rows: [string, string][] = [
    ['Amount paid', formatMoney(r.amountCents)],
    ['Paid with', r.methodLabel],
    ['Date', formatZonedDateTime(r.paidAt, r.timeZone)],
    ['Status', r.paymentState],
    ['Request total', formatMoney(r.requestAmountCents)],
    ['Still to pay', formatMoney(r.remainingCents)],
    ['Receipt number', r.paymentId],
  ];
  const table = `<table class="fs-table"><tbody>${rows.map(([th, td]) => `<tr><th scope="row">${escapeHtml(th)}</th><td>${escapeHtml(td)}</td></tr>`).join('')}</tbody></table>`;
  return {
    status: 200,
    title: 'Payment receipt',
    html: `<section class="fs-card"><h1 class="fs-title">Receipt</h1>${text(`${r.businessName} · ${r.referenceNumber}`, 'p', 'fs-dim')}${table}</section>`,
    data: { kind: 'receipt', key, value: r },
  };
}

/** A link or code that leads nowhere: the web app's words for it, with its status. */
export function problemFirstScreen(title: string, message: string, status = 404): FirstScreen {
  return { status, title: 'Payment', html: `<section class="fs-card fs-problem">${text(title, 'h1', 'fs-title')}${text(message, 'p', 'fs-dim')}</section>` };
}

/** The first screen's look until the web app's styles take over: the pay layout's, in a few rules. */
const STYLE = `<style>
#first-screen{font-family:Inter,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;background:#f8f9fa;min-height:100vh;line-height:1.55}
#first-screen header{background:#fff;border-bottom:1px solid #dee2e6}
#first-screen .fs-bar{max-width:45rem;margin:0 auto;height:56px;padding:0 1rem;display:flex;align-items:center;justify-content:space-between;font-size:.875rem;color:#5f676f}
#first-screen .fs-brand{font-weight:700;font-size:1.2rem;color:#1864ab}
#first-screen main{max-width:45rem;margin:0 auto;padding:2rem 1rem;display:flex;flex-direction:column;gap:1.25rem}
#first-screen p,#first-screen h1{margin:0;overflow-wrap:anywhere}
#first-screen .fs-card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:1.25rem;display:flex;flex-direction:column;gap:.6rem}
#first-screen .fs-business{display:flex;gap:.75rem;align-items:center}
#first-screen .fs-logo{border-radius:8px;object-fit:cover}
#first-screen .fs-name,#first-screen .fs-strong{font-weight:600}
#first-screen .fs-dim{color:#5f676f;font-size:.875rem}
#first-screen .fs-amount{font-size:2.25rem;font-weight:700;line-height:1.2}
#first-screen .fs-title{font-size:1.6rem;font-weight:700;line-height:1.25}
#first-screen .fs-memo{white-space:pre-line}
#first-screen .fs-notice,#first-screen .fs-choices{border-radius:8px;padding:1rem;background:#fff;border:1px solid #dee2e6}
#first-screen .fs-done{background:#e6fcf5;border-color:#96f2d7}
#first-screen .fs-info{background:#e7f5ff;border-color:#a5d8ff}
#first-screen .fs-off{background:#f1f3f5}
#first-screen .fs-table{border-collapse:collapse;width:100%}
#first-screen .fs-table th,#first-screen .fs-table td{border:1px solid #dee2e6;padding:.5rem .75rem;text-align:left;overflow-wrap:anywhere}
#first-screen .fs-table th{width:8rem;background:#f8f9fa;font-weight:600}
#first-screen footer{text-align:center;font-size:.75rem;color:#5f676f;padding:1rem}
</style>`;

/**
 * The web app's page with a first screen: the screen in `#first-screen`, the app's root hidden
 * until its page is drawn over the same data (then the app removes the screen), the data for it,
 * and the page's title.
 */
export function withFirstScreen(indexHtml: string, screen: FirstScreen): string {
  const frame =
    `<div id="first-screen">${STYLE}<header><div class="fs-bar"><span class="fs-brand">Tay</span><span>Secure payment</span></div></header>` +
    `<main>${screen.html}</main><footer>Payments are processed by Tay on behalf of the business. Card details go straight to our payment processor.</footer></div>`;
  const data = screen.data ? `<script type="application/json" id="tay-first-screen">${scriptJson(screen.data)}</script>` : '';
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(screen.title)}</title>`)
    .replace('<div id="root"></div>', `${frame}${data}<div id="root" hidden></div>`);
}
