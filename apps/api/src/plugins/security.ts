import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@tay/contract';
import { AppError } from '../lib/app-error';

export interface SecurityOptions {
  rateLimit: { max: number; windowSeconds: number };
  isProduction: boolean;
}

/**
 * Security headers on every response and a per-client request budget. The budget is kept per
 * process: it guards each replica, and the limits that must hold across processes (sign-in,
 * codes) are kept in the database by the identity module.
 */
export const security = fp<SecurityOptions>(
  async function security(app: FastifyInstance, options) {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          scriptSrc: ["'self'"],
          // Mantine writes component styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          ...(options.isProduction ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: options.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    await app.register(rateLimit, {
      global: true,
      max: options.rateLimit.max,
      timeWindow: options.rateLimit.windowSeconds * 1000,
      errorResponseBuilder: (_request, context) =>
        new AppError(
          ErrorCode.RateLimited,
          `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
        ),
    });
  },
  { name: 'security' },
);
