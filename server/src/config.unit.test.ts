import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { redactUrl } from './http/logging.ts';
import { languageFromHeader } from './i18n/messages.ts';

describe('configuration', () => {
  it('defaults to the embedded mode on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, BERTH_DATA_DIR: './data', BERTH_ADMIN_EMAIL: 'admin@localhost', TRUST_PROXY: false });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['BERTH_ADMIN_EMAIL', 'not an e-mail'],
    ['BERTH_ADMIN_PASSWORD', 'short'],
    ['TRUST_PROXY', 'maybe'],
    ['ARGON2_MEMORY_KIB', '1024'],
    ['STRIPE_API_BASE', 'ftp://stripe.example'],
  ])('stops on a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});

describe('Stripe keys', () => {
  it('are set together or not at all', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET:/);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toMatchObject({
      STRIPE_API_BASE: 'https://api.stripe.com',
    });
    expect(loadConfig({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '', STRIPE_API_BASE: '' }).STRIPE_SECRET_KEY).toBeUndefined();
  });
});

describe('log redaction', () => {
  it.each([
    ['/api/password/reset/abc123/tok3n', '/api/password/reset/[redacted]'],
    ['/register/verify/XYZ?x=1', '/register/verify/[redacted]?x=1'],
    ['/password/otplogin?uniq_id=u1&otp=123456', '/password/otplogin?uniq_id=u1&otp=[redacted]'],
    ['/api/user', '/api/user'],
  ])('redacts secrets in %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('language negotiation', () => {
  it.each([
    [undefined, 'en'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['fr-FR, cs;q=0.5, en;q=0.4', 'cs'],
    ['fr', 'en'],
  ])('picks %s → %s', (header, expected) => {
    expect(languageFromHeader(header)).toBe(expected);
  });
});
