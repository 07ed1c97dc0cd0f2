import { requireUser } from '../../http/context.ts';
import { tokenScopeOf } from './scopes.ts';

/** How a caller signs in, as the OpenAPI document (/api/docs) declares it. */
export const OPENAPI_SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: 'berth_session', description: 'The session cookie of POST /api/login' },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal API token (berth_…) from /account/api-tokens; each operation says the scope it needs',
  },
} as const;

interface TransformInput {
  url: string;
  route: { method: string | string[]; preHandler?: unknown };
}

/**
 * Adds to each operation that needs a signed-in user how it may be called: with the session, and
 * with an API token of the scope it names (modules/api-tokens/scopes.ts), or not with a token.
 */
export function withTokenScope<T extends { schema: unknown; url: string }>(input: TransformInput, output: T): T {
  const handlers = [input.route.preHandler].flat();
  if (!handlers.includes(requireUser)) return output;
  const method = [input.route.method].flat()[0] ?? 'GET';
  const scope = tokenScopeOf(input.url, String(method));
  const schema = { ...(output.schema as Record<string, unknown>) };
  const note =
    scope === null ? 'Not open to API tokens.' : scope === 'any' ? 'Any API token may call it.' : `API token scope: \`${scope}\`.`;
  schema.description = [schema.description, note].filter(Boolean).join('\n\n');
  schema.security = scope === null ? [{ session: [] }] : [{ session: [] }, { apiToken: [] }];
  if (scope !== null) schema['x-token-scope'] = scope;
  return { ...output, schema };
}
