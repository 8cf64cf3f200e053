import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../lib/app-error';
import { errorHandler } from './error-handler';

async function appWith(register: (app: ReturnType<typeof base>) => void) {
  const app = base();
  await app.register(errorHandler);
  register(app);
  await app.ready();
  return app;
}

function base() {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

describe('error handler', () => {
  it('hides the internals of unexpected errors', async () => {
    const app = await appWith((a) =>
      a.get('/boom', async () => {
        throw new Error('password authentication failed for postgres://admin:hunter2@db/prod');
      }),
    );
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      status: 'Error',
      errorDetails: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' },
    });
    expect(res.body).not.toContain('hunter2');
  });

  it('maps AppError codes to statuses and keeps field messages', async () => {
    const app = await appWith((a) =>
      a.post('/things', async () => {
        throw AppError.validation('The amount is invalid.', { amount: 'Enter an amount above $0.00.' });
      }),
    );
    const res = await app.inject({ method: 'POST', url: '/things', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 'Error',
      errorDetails: {
        code: 'VALIDATION_FAILED',
        message: 'The amount is invalid.',
        fields: { amount: 'Enter an amount above $0.00.' },
      },
    });
  });

  it('reports every invalid body field by its path', async () => {
    const app = await appWith((a) =>
      a.post('/owners', { schema: { body: z.object({ name: z.string().min(1), owners: z.array(z.object({ email: z.email() })) }) } }, async () => ({
        ok: true,
      })),
    );
    const res = await app.inject({ method: 'POST', url: '/owners', payload: { name: '', owners: [{ email: 'nope' }] } });
    expect(res.statusCode).toBe(400);
    const details = res.json().errorDetails;
    expect(details.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(details.fields).sort()).toEqual(['name', 'owners.0.email']);
    expect(details.message).toContain('name');
  });

  it('explains a body sent without the JSON content type', async () => {
    const app = await appWith((a) => a.post('/json', async () => ({ ok: true })));
    const res = await app.inject({ method: 'POST', url: '/json', payload: 'a=1', headers: { 'content-type': 'text/csv' } });
    expect(res.statusCode).toBe(415);
    expect(res.json().errorDetails.message).toBe('Send the request body as JSON (Content-Type: application/json).');
  });
});
