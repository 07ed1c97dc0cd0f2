import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A path is found in the module its URL names: /api/<segment>/… lives in modules/<segment>/routes.ts,
// and /api/account|host|system/<segment>/… in the module of <segment>. Where a segment belongs to an
// area with another folder name, the table below says so (docs/architecture.md, "Where a route lives").
const modulesDir = new URL('.', import.meta.url).pathname;

/** Path prefix → the module folder (or folders) it may be registered in; the longest prefix wins. */
const AREAS: Record<string, string[]> = {
  '/account/2fa': ['twofactor'],
  '/account/email': ['registration'],
  '/account/payment-methods': ['payments'],
  '/host/domain': ['domains'],
  '/host/domain/:id/dns': ['dns'],
  '/host/domain/:id/certificate': ['certificates'],
  '/host/domain/:id/users': ['domain-users'],
  '/host/domain/:id/aliases': ['mail-aliases'],
  '/host/domain-user': ['domain-users'],
  '/login': ['auth'],
  '/logout': ['auth'],
  '/login2fa': ['twofactor'],
  '/login/passkey': ['passkeys'],
  '/login2fa/passkey': ['passkeys'],
  '/password/otp': ['otp'],
  '/password/otplogin': ['otp'],
  '/register': ['registration'],
  '/system/audit': ['audit'],
  '/system/certificate': ['certificates'],
  '/system/partner/promo': ['promo'],
  '/tenant': ['tenants'],
  '/user': ['users'],
  // Registered under the /system prefix by app.ts: the mail module's outbox for operators.
  '/outbox': ['mail'],
};
const GROUPS = new Set(['account', 'host', 'system']);

function expectedModules(path: string): string[] {
  const prefix = Object.keys(AREAS)
    .filter((key) => path === key || path.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix) return AREAS[prefix]!;
  const [first = '', second = ''] = path.split('/').filter(Boolean);
  return [GROUPS.has(first) ? second : first];
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return full.endsWith('.ts') && !full.includes('.test.') ? [full] : [];
  });
}

/** Every literal path given to a route method, with the file that registers it. */
const registrations = routeFiles(modulesDir).flatMap((file) => {
  const source = readFileSync(file, 'utf8');
  return [
    ...source.matchAll(
      /\bapi\.(get|post|put|patch|delete)(?:<[^>]*>)?\(\s*(['`])([^'`]*)\2|\.(get|post|put|patch|delete)\(\s*'(\/[^']*)'/g,
    ),
  ].map((match) => ({ path: match[3] ?? match[5] ?? '', file: relative(modulesDir, file) }));
});

describe('route locations', () => {
  it('finds the routes (the scan itself works)', () => {
    expect(registrations.length).toBeGreaterThan(100);
    expect(registrations.map((r) => r.path)).toContain('/system/customers/:id/lock');
  });

  it('registers every path in routes.ts of the module its URL names, as literal paths', () => {
    const misplaced = registrations
      .filter(({ path, file }) => {
        const [folder, name] = file.split('/');
        return name !== 'routes.ts' || !expectedModules(path).includes(folder ?? '') || path.includes('${');
      })
      .map(({ path, file }) => `${path} in ${file} (expected ${expectedModules(path).join(' or ')}/routes.ts)`);
    expect(misplaced).toEqual([]);
  });
});
