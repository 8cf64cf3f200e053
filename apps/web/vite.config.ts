import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressPlugin } from './build/precompress';
import { stripEndpointSchemasPlugin } from './build/strip-endpoint-schemas';

const API = 'http://127.0.0.1:3000';

/**
 * `TAY_WEB_ENTRY=pay`: the payer's pages' own entry (`pay.html`, ADR 047), built after the portal's
 * into the same directory. A build of its own, so its first download is the payer's pages' shell
 * and not one shared with the portal's (a shell of both entries' first pages weighed 150 kB).
 */
const payer = process.env.TAY_WEB_ENTRY === 'pay';

/**
 * The API server writes its public settings (processor key, marketing site) into the page. The
 * dev server asks the API for them and does the same, so `npm run dev` behaves like `npm start`.
 */
function publicConfigFromApi(): Plugin {
  return {
    name: 'tay-public-config',
    apply: 'serve',
    async transformIndexHtml(html) {
      try {
        const config = await (await fetch(`${API}/api/public-config`)).text();
        const content = config.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
        return html.replace('</head>', `  <meta name="tay-config" content="${content}" />\n  </head>`);
      } catch {
        return html;
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), publicConfigFromApi(), stripEndpointSchemasPlugin(), precompressPlugin()],
  server: {
    port: 5173,
    proxy: { '/api': API, '/dev': API, '/sandbox-processor': API },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: !payer,
    // No public source maps: the server would hand the app's source to anyone who asks.
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      input: payer ? 'pay.html' : 'index.html',
      // Building a zod schema has no effect but the schema: one nothing uses is left out (44 kB of
      // the pages' script). With the endpoint table's schemas left out too (strip-endpoint-schemas.ts).
      treeshake: { manualPureFunctions: ['z'] },
      // Needed to copy small shared chunks into the chunks that use them (below); no page imports
      // the entry's exports.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // Everything the first page needs in one file: split into the pieces the lazy pages
          // share, it compressed a tenth worse and took more requests.
          groups: [{ name: payer ? 'pay-shell' : 'shell', tags: ['$initial'] }],
          // A lazy page's modules are shared with other pages in so many ways that the bundler
          // made a file of each way: the portal's home was 93 script requests, the pay page 47,
          // most under 2 kB. A shared chunk of less than 60 kB of source is copied into the chunks
          // that use it instead; the bundler's runtime keeps one instance of each module whichever
          // copy runs first (bench/RESULTS.md, 2026-12-01: home 10 requests, the pay page 8, for
          // about the same bytes; the sign-in page +4 kB for that runtime). Stylesheets stay
          // files of their own, as Vite needs them to.
          experimentalInlineCommonChunks: { maxSize: 60_000, exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/ },
        },
      },
    },
  },
});
