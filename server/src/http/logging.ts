import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/** Reset tokens, verification codes and OTPs travel in URLs; they must never reach a log line. */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/password\/reset\/)[^?#]*/i, '$1[redacted]')
    .replace(/(\/register\/verify\/)[^?#]*/i, '$1[redacted]')
    .replace(/([?&](?:otp|token|code)=)[^&#]*/gi, '$1[redacted]');
}

/**
 * Database errors carry the failed query's parameters (token hashes, password hashes, mail
 * bodies); a logged error keeps its message, code and stack only.
 */
export function serializeError(error: Error) {
  const serialized = { ...stdSerializers.err(error) } as ReturnType<typeof stdSerializers.err> & Record<string, unknown>;
  for (const key of ['params', 'parameters', 'query', 'queryOptions', 'values', 'client', 'raw']) delete serialized[key];
  return serialized;
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], remove: true },
    serializers: {
      err: serializeError,
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
