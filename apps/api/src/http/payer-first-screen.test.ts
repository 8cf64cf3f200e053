import { describe, expect, it } from 'vitest';
import { escapeHtml, problemFirstScreen, scriptJson, withFirstScreen } from './payer-first-screen';

describe("a payer's first screen", () => {
  it('escapes every character that could start markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('writes JSON that cannot close its script element or open a comment, and reads back the same', () => {
    const value = { memo: '</script><!-- \u2028 & >' };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it("puts the screen before the app's root, hides the root, and sets the title", () => {
    const page = withFirstScreen(
      '<html><head><title>Tay for Business</title></head><body><div id="root"></div></body></html>',
      problemFirstScreen('Gone <b>', 'Why'),
    );
    expect(page).toContain('<title>Payment</title>');
    expect(page).toMatch(/<div id="first-screen">[\s\S]*Gone &lt;b&gt;[\s\S]*<\/div><div id="root" hidden><\/div>/);
    expect(page).not.toContain('tay-first-screen');
  });
});
