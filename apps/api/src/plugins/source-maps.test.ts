import { describe, expect, it } from 'vitest';
import { isSourceMapPath } from './source-maps';

describe('isSourceMapPath', () => {
  it('knows a source map however its name is written', () => {
    for (const url of ['/assets/index-abc.js.map', '/assets/index-abc.css.map?v=1', '/assets/index-abc.js%2Emap', '/assets/index-abc.js.%6Dap', '/x.MAP']) {
      expect(isSourceMapPath(url), url).toBe(true);
    }
  });

  it('leaves everything else alone', () => {
    for (const url of ['/assets/index-abc.js', '/business/map', '/api/sitemap?file=a.map', '/assets/%E0%A4%A.js', '/']) {
      expect(isSourceMapPath(url), url).toBe(false);
    }
  });
});
