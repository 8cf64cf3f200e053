import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

export const silentLogger = pino({ level: 'silent' }) as FastifyBaseLogger;
