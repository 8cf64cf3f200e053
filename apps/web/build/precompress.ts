import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What is worth compressing: text the browser fetches. The page itself is served from memory with its settings. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|webmanifest)$/;

/** Smaller files gain less than a packet. */
export const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip level 9) beside each of `files`
 * in `dir` that is worth it: compressible, at least {@link MIN_BYTES}, and smaller compressed. The
 * server sends them as they are (`preCompressed`), so the best compression costs nothing per request.
 * Returns the files written.
 */
export async function precompress(dir: string, files: readonly string[]): Promise<string[]> {
  const written: string[] = [];
  await Promise.all(
    files
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const full = path.join(dir, file);
        if ((await stat(full)).size < MIN_BYTES) return;
        const body = await readFile(full);
        const variants: [string, Buffer][] = [
          [
            '.br',
            await brotli(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            }),
          ],
          ['.gz', await gzipAsync(body, { level: constants.Z_BEST_COMPRESSION })],
        ];
        for (const [extension, compressed] of variants) {
          if (compressed.length >= body.length) continue;
          await writeFile(full + extension, compressed);
          written.push(file + extension);
        }
      }),
  );
  return written.sort();
}

/** The build's plugin: pre-compresses every emitted file once it is written. */
export function precompressPlugin(): Plugin {
  return {
    name: 'tay-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (!options.dir) return;
      await precompress(options.dir, Object.keys(bundle));
    },
  };
}
