import type { FastifyServerOptions } from 'fastify';

/** Reset tokens, verification codes and OTPs travel in URLs; they must never reach a log line. */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/password\/reset\/)[^?#]*/i, '$1[redacted]')
    .replace(/(\/register\/verify\/)[^?#]*/i, '$1[redacted]')
    .replace(/([?&](?:otp|token|code)=)[^&#]*/gi, '$1[redacted]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], remove: true },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
