/**
 * The sandbox's hosted card field: a page the pay page frames, so card numbers are typed into the
 * processor's page and sent only to the processor's token endpoint — never to our API. Its script
 * and styles are separate files (the CSP allows no inline code). Protocol with the parent page,
 * which must be on the same origin (the page may be framed by 'self' only):
 *
 *   iframe → parent  { type: 'tay:ready' }                      loaded
 *   iframe → parent  { type: 'tay:change', complete: boolean }  as the payer types
 *   parent → iframe  { type: 'tay:tokenize' }                   the payer pressed Pay
 *   iframe → parent  { type: 'tay:token', token, label }        or { type: 'tay:error', message }
 */
export const CARD_FIELD_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Card details</title>
    <link rel="stylesheet" href="card-field.css" />
    <script src="card-field.js" defer></script>
  </head>
  <body>
    <form id="card-form" novalidate autocomplete="on">
      <div class="field">
        <label for="card-number">Card number</label>
        <input id="card-number" name="cardnumber" type="text" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" maxlength="23" aria-describedby="card-error" required />
      </div>
      <div class="row">
        <div class="field">
          <label for="card-expiry">Expiry (MM/YY)</label>
          <input id="card-expiry" name="exp-date" type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" aria-describedby="card-error" required />
        </div>
        <div class="field">
          <label for="card-cvc">CVC</label>
          <input id="card-cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4" aria-describedby="card-error" required />
        </div>
      </div>
      <p id="card-error" class="error" role="alert" aria-live="polite"></p>
    </form>
  </body>
</html>
`;

export const CARD_FIELD_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.4 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#212529;background:transparent}
form{display:flex;flex-direction:column;gap:12px;padding:2px}
.row{display:flex;gap:12px}
.row .field{flex:1}
.field{display:flex;flex-direction:column;gap:4px}
label{font-size:14px;font-weight:500}
input{font:inherit;padding:8px 12px;border:1px solid #ced4da;border-radius:4px;min-height:40px;width:100%}
input:focus{outline:2px solid #228be6;outline-offset:1px;border-color:#228be6}
input[aria-invalid="true"]{border-color:#e03131}
.error{margin:0;min-height:1.4em;color:#c92a2a;font-size:14px}
`;

export const CARD_FIELD_JS = `(function () {
  'use strict';
  var key = new URLSearchParams(window.location.search).get('pk') || '';
  var origin = window.location.origin;
  var number = document.getElementById('card-number');
  var expiry = document.getElementById('card-expiry');
  var cvc = document.getElementById('card-cvc');
  var error = document.getElementById('card-error');
  var busy = false;
  var lastComplete = null;

  function post(message) {
    if (window.parent && window.parent !== window) window.parent.postMessage(message, origin);
  }
  function digits(value) {
    return value.replace(/\\D/g, '');
  }
  function luhn(d) {
    var sum = 0;
    for (var i = 0; i < d.length; i++) {
      var n = Number(d.charAt(d.length - 1 - i));
      if (i % 2 === 1) { n *= 2; if (n > 9) n -= 9; }
      sum += n;
    }
    return d.length >= 12 && d.length <= 19 && sum % 10 === 0;
  }
  function parseExpiry(value) {
    var m = /^\\s*(\\d{1,2})\\s*\\/?\\s*(\\d{2}|\\d{4})\\s*$/.exec(value);
    if (!m) return null;
    var month = Number(m[1]);
    var year = Number(m[2]);
    if (year < 100) year += 2000;
    return month >= 1 && month <= 12 ? { month: month, year: year } : null;
  }
  function problem() {
    if (!luhn(digits(number.value))) return { field: number, message: 'Enter a valid card number.' };
    if (!parseExpiry(expiry.value)) return { field: expiry, message: 'Enter the expiry date as MM/YY.' };
    if (!/^\\d{3,4}$/.test(cvc.value)) return { field: cvc, message: 'Enter the 3 or 4 digit security code (CVC).' };
    return null;
  }
  function showError(message, field) {
    error.textContent = message || '';
    [number, expiry, cvc].forEach(function (input) {
      if (input === field) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    });
  }
  function changed() {
    var complete = problem() === null;
    if (error.textContent) showError('');
    if (complete !== lastComplete) {
      lastComplete = complete;
      post({ type: 'tay:change', complete: complete });
    }
  }
  number.addEventListener('input', function () {
    var d = digits(number.value).slice(0, 19);
    number.value = d.replace(/(\\d{4})(?=\\d)/g, '$1 ');
    changed();
  });
  expiry.addEventListener('input', function () {
    var d = digits(expiry.value).slice(0, 4);
    expiry.value = d.length > 2 ? d.slice(0, 2) + '/' + d.slice(2) : d;
    changed();
  });
  cvc.addEventListener('input', function () {
    cvc.value = digits(cvc.value).slice(0, 4);
    changed();
  });
  document.getElementById('card-form').addEventListener('submit', function (event) {
    event.preventDefault();
  });

  function fail(message, field) {
    showError(message, field);
    post({ type: 'tay:error', message: message });
  }
  function tokenize() {
    if (busy) return;
    var found = problem();
    if (found) { fail(found.message, found.field); return; }
    var exp = parseExpiry(expiry.value);
    busy = true;
    fetch('/sandbox-processor/v1/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
      body: JSON.stringify({ card: { number: digits(number.value), expMonth: exp.month, expYear: exp.year, cvc: cvc.value } }),
      credentials: 'omit',
    })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (result) {
        if (result.ok && result.body && result.body.id) {
          showError('');
          post({ type: 'tay:token', token: result.body.id, label: result.body.label });
          return;
        }
        var details = (result.body && result.body.errorDetails) || {};
        var fields = details.fields || {};
        var first = Object.keys(fields)[0];
        var field = first === 'card.number' ? number : first === 'card.cvc' ? cvc : first ? expiry : null;
        fail(first ? fields[first] : details.message || 'Your card could not be checked. Try again.', field);
      })
      .catch(function () {
        fail('Your card could not be checked. Check your connection and try again.', null);
      })
      .then(function () { busy = false; });
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== origin) return;
    if (event.data && event.data.type === 'tay:tokenize') tokenize();
  });
  post({ type: 'tay:ready' });
})();
`;
