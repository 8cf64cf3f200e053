import { describe, expect, it } from 'vitest';
import { apiSecurityHeaders, helmetOptions, isApiCall, securityHeaders } from './security';

describe('securityHeaders', () => {
  it("are helmet's headers for our options, worked out once", () => {
    expect(securityHeaders(helmetOptions(true))).toEqual({
      'content-security-policy':
        "default-src 'self';base-uri 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';form-action 'self';frame-ancestors 'none';object-src 'none';upgrade-insecure-requests",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
  });

  it('leave out HSTS and the upgrade of insecure requests outside production', () => {
    const headers = securityHeaders(helmetOptions(false));
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('apiSecurityHeaders', () => {
  it('are the four an answer that is no page needs, HSTS in production only', () => {
    expect(apiSecurityHeaders(true)).toEqual({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      'strict-transport-security': securityHeaders(helmetOptions(true))['strict-transport-security'],
    });
    expect(apiSecurityHeaders(false)['strict-transport-security']).toBeUndefined();
  });

  it('go on API calls; the API reference and everything else is a page', () => {
    expect(isApiCall('/api/health')).toBe(true);
    expect(isApiCall('/api/businesses/b1/payment-requests?page=2')).toBe(true);
    expect(isApiCall('/api/docs/')).toBe(false);
    expect(isApiCall('/api')).toBe(false);
    expect(isApiCall('/business/home')).toBe(false);
    expect(isApiCall('/assets/index-abc.js')).toBe(false);
  });
});
