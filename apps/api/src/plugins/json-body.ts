import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The web client sends `Content-Type: application/json` on every request (docs/product.md §7), also on
 * actions without a payload (send, withdraw…): an empty JSON body means "no body".
 */
export const jsonBody = fp(
  async function jsonBody(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      void parseJson(request, text, done);
    });
  },
  { name: 'json-body' },
);
