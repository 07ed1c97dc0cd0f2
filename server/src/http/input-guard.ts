import type { FastifyInstance } from 'fastify';
import { INPUT_DEPTH_MAX, textProblem, type FieldErrors } from '@berth/contracts';
import { translate, type MessageKey } from '../i18n/messages.ts';

type Problem = { field: string; key: MessageKey };

/** The first string (or nesting) in `value` the database could not take, with its dot path. */
function findProblem(value: unknown, path: string, depth: number): Problem | undefined {
  if (typeof value === 'string') {
    const key = textProblem(value);
    return key ? { field: path || '_', key } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > INPUT_DEPTH_MAX) return { field: path || '_', key: 'validation.too_deep' };
  for (const [name, inner] of Object.entries(value)) {
    const nameKey = textProblem(name);
    if (nameKey) return { field: path || '_', key: nameKey };
    const found = findProblem(inner, path ? `${path}.${name}` : name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Before any route's schema: every string of the body, the query and the path is text the
 * database can store (contracts/src/input.ts), and bodies nest no deeper than a payload can. One
 * rule for every field, so a NUL byte or a lone surrogate is a 422 on its field, never a 500 from
 * PostgreSQL (22021), whichever route it was sent to.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const problem = findProblem(request.params, '', 0) ?? findProblem(request.query, '', 0) ?? findProblem(request.body, '', 0);
    if (!problem) return;
    const errors: FieldErrors = { [problem.field]: [translate(request.lang ?? 'en', problem.key)] };
    return reply.code(422).send({ message: translate(request.lang ?? 'en', 'validation.failed'), errors });
  });
}
