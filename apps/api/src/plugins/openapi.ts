import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * A success that is a file rather than JSON (a PDF, a CSV, an image), as the OpenAPI document
 * names it: its media types and what it is. The body goes out as the handler sends it.
 */
export function fileResponse(description: string, mediaTypes: readonly string[], { text = false } = {}) {
  // `unknown` to the type checker (the handler sends a Buffer or a stream), a string to the document.
  const schema = z.unknown().meta(text ? { type: 'string' } : { type: 'string', format: 'binary' });
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])) };
}

export interface OpenapiOptions {
  /**
   * Off in production: the document and its browsable reference map every route, internal ones
   * included, for whoever asks, and the portal's only client is its own web app (ADR 023).
   */
  serve: boolean;
}

/** OpenAPI 3 generated from the routes' zod schemas: JSON at /api/openapi.json, browsable at /api/docs. */
export const openapi = fp<OpenapiOptions>(
  async function openapi(app: FastifyInstance, { serve }) {
    if (!serve) return;
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Tay Business Portal API',
          description:
            'The API behind the Tay merchant portal. Errors always have the shape `{ "status": "Error", "errorDetails": { "code", "message", "fields"? } }`.',
          version: '0.1.0',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        },
      },
      transform: jsonSchemaTransform,
      hideUntagged: false,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
    app.get('/api/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
