import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../test/harness.ts';

// Every operation of the OpenAPI document, sent what an attacker or a broken client sends:
// malformed JSON, wrong types, NUL bytes, lone surrogates, huge strings and numbers, deep nesting,
// ids past the integer range. None may answer 5xx. The inputs are derived from each operation's
// own schema, so a new route is covered the day it is added.

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  const?: unknown;
  format?: string;
  minimum?: number;
};
type Operation = {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

const HUGE_STRING = 'x'.repeat(200_000);
const NUL = 'a\u0000b';
const SURROGATE = 'a\uD800b';
const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};
/** What goes into one field in place of its value. */
const BAD_VALUES: unknown[] = [NUL, SURROGATE, HUGE_STRING, 1e308, 2 ** 31, -(2 ** 63), 1.5, true, {}, [], null, deep(200), { a: NUL }];
const BAD_PATH_VALUES = ['2147483648', '99999999999999999999', '-1', '0', 'abc', '%00', '%ED%A0%80', '1e400', 'x'.repeat(3000)];
const BAD_QUERY_VALUES = ['%00', '%ED%A0%80', 'x'.repeat(5000), '99999999999999999999', '-1', '1e400', 'abc'];

let t: TestApp;
let document: { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
let cookie: string;

const resolve = (schema: Schema | undefined): Schema => {
  let current = schema ?? {};
  for (let i = 0; current.$ref && i < 10; i++) current = document.components?.schemas?.[current.$ref.split('/').pop() ?? ''] ?? {};
  if (current.allOf?.length)
    return current.allOf.map(resolve).reduce((a, b) => ({ ...a, ...b, properties: { ...a.properties, ...b.properties } }), {});
  return current;
};

/** A value of the shape `schema` asks for, so that each mutation below changes one field only. */
function plausible(schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return plausible(union[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((name) => name !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    if (depth > 4) return {};
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, inner]) => [name, plausible(inner, depth + 1)]));
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
  if (type === 'boolean') return true;
  if (s.format === 'email') return 'fuzz@example.com';
  return 'fuzz';
}

const pathWith = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1').replace(/:(\w+)/g, (_, name: string) => values[name] ?? '1');

beforeAll(async () => {
  t = await createTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  ({ cookie } = await login(t.app));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the API under malformed input', () => {
  it('answers every operation of the OpenAPI document without a 5xx', async () => {
    const failures: string[] = [];
    let sent = 0;
    const send = async (method: string, url: string, payload?: string, contentType = 'application/json') => {
      sent++;
      const answer = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: { cookie, ...(payload !== undefined ? { 'content-type': contentType } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      });
      if (answer.statusCode >= 500)
        failures.push(
          `${method.toUpperCase()} ${url.slice(0, 120)} ${payload?.slice(0, 80) ?? ''} → ${answer.statusCode} ${answer.body.slice(0, 160)}`,
        );
      if (/at .+\.(ts|js):\d+/.test(answer.body)) failures.push(`${method.toUpperCase()} ${url.slice(0, 120)} answered a stack trace`);
    };

    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(100);
    for (const { path, method, operation } of operations) {
      // Logging out or stopping an impersonation would end the session the rest runs with.
      if (path.endsWith('/logout') || path.startsWith('/api/docs')) continue;
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const base = pathWith(path, {});
      for (const name of pathParams) for (const bad of BAD_PATH_VALUES) await send(method, pathWith(path, { [name]: bad }));
      for (const { name } of queryParams) for (const bad of BAD_QUERY_VALUES) await send(method, `${base}?${name}=${bad}`);
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      if (!bodySchema || method === 'get') continue;
      for (const raw of ['{"a":', '[]', '"text"', '123', 'null', '['.repeat(20_000) + ']'.repeat(20_000), '\u0000'])
        await send(method, base, raw);
      const good = plausible(bodySchema);
      if (!good || typeof good !== 'object' || Array.isArray(good)) continue;
      const fields = Object.keys(good);
      for (const field of fields) {
        for (const bad of BAD_VALUES) await send(method, base, JSON.stringify({ ...good, [field]: bad }));
        const inner = (good as Record<string, unknown>)[field];
        // One level down too: contact.given_name, item.domain, …
        if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
          for (const sub of Object.keys(inner))
            for (const bad of [NUL, SURROGATE, 2 ** 31, HUGE_STRING])
              await send(method, base, JSON.stringify({ ...good, [field]: { ...inner, [sub]: bad } }));
        }
      }
      await send(method, base, JSON.stringify({ ...good, [`${NUL}key`]: 1 }));
    }
    expect(sent).toBeGreaterThan(2_000);
    expect(failures, failures.slice(0, 15).join('\n')).toEqual([]);
  }, 600_000);
});
