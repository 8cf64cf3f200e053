import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressPlugin } from './build/precompress';

const API = 'http://127.0.0.1:3000';

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
  plugins: [react(), publicConfigFromApi(), precompressPlugin()],
  server: {
    port: 5173,
    proxy: { '/api': API, '/dev': API, '/sandbox-processor': API },
  },
  build: {
    outDir: 'dist',
    // No public source maps: the server would hand the app's source to anyone who asks.
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // Everything the first page needs in one file: split into the pieces the lazy pages share, it
    // compressed a tenth worse and took more requests.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] } } },
  },
});
