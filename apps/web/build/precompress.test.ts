import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tay-precompress-'));
  mkdirSync(path.join(dir, 'assets'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const script = 'export function greet(name) { return `Hello, ${name}!`; }\n'.repeat(200);

describe('precompress', () => {
  it('writes a brotli and a gzip copy beside each script and stylesheet, each the same file once decompressed', async () => {
    writeFileSync(path.join(dir, 'assets/index-abc123.js'), script);
    writeFileSync(path.join(dir, 'assets/index-abc123.css'), '.button { color: red; }\n'.repeat(100));

    const written = await precompress(dir, ['assets/index-abc123.js', 'assets/index-abc123.css']);

    expect(written).toEqual(['assets/index-abc123.css.br', 'assets/index-abc123.css.gz', 'assets/index-abc123.js.br', 'assets/index-abc123.js.gz']);
    const file = (name: string) => readFileSync(path.join(dir, name));
    expect(brotliDecompressSync(file('assets/index-abc123.js.br')).toString()).toBe(script);
    expect(gunzipSync(file('assets/index-abc123.js.gz')).toString()).toBe(script);
    expect(file('assets/index-abc123.js.br').length).toBeLessThan(script.length / 10);
  });

  it('leaves small files, images, source maps and the page alone', async () => {
    writeFileSync(path.join(dir, 'assets/tiny-abc123.js'), 'export const a = 1;\n');
    writeFileSync(path.join(dir, 'assets/index-abc123.js.map'), script);
    writeFileSync(path.join(dir, 'assets/logo-abc123.png'), Buffer.alloc(4096));
    writeFileSync(path.join(dir, 'index.html'), `<html>${script}</html>`);

    const files = ['assets/tiny-abc123.js', 'assets/index-abc123.js.map', 'assets/logo-abc123.png', 'index.html'];
    expect(await precompress(dir, files)).toEqual([]);
    for (const file of files) {
      expect(existsSync(path.join(dir, `${file}.br`))).toBe(false);
      expect(existsSync(path.join(dir, `${file}.gz`))).toBe(false);
    }
  });
});
