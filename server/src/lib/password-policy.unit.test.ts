import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy } from './password-policy.ts';

// The passwords an attacker tries first are refused, each with the reason shown under the field.

const ME = ['hana.novakova@harbor.test', 'Hana', 'Nováková'];

describe('the password policy', () => {
  it.each([
    ['password1234567', 'password.common'],
    ['123456789012345', 'password.common'],
    ['aaaaaaaaaaaaaaa', 'password.repeated'],
    ['               ', 'password.repeated'],
    ['qwertyuiopasdfg', 'password.common'],
    ['hana.novakova@harbor.test1', 'password.context'],
    ['hana.novakova@harbor.test', 'password.same_as_login'],
    ['harborharborharbor', 'password.context'],
    ['harbortest2026!', 'password.context'],
    ['2026-Hana-Harbor', 'password.context'],
    ['support@harbor.test', 'password.context'],
    ['correct horse battery staple', 'password.common'],
    ['CorrectHorseBatteryStaple!', 'password.common'],
    ['the quick brown fox jumps over the lazy dog', 'password.common'],
    ['short', 'password.too_short'],
  ])('refuses %j (%s)', (password, key) => {
    expect(checkPasswordPolicy(password, ME)?.key).toBe(key);
  });

  it.each([
    'sturdy lantern orchard velvet',
    'harbor lights over a quiet bay',
    'a long enough passphrase 2026',
    'kdjf83hf7s9dkf0a',
    'Mořská vlna nad Vltavou 77',
  ])('accepts %j', (password) => {
    expect(checkPasswordPolicy(password, ME)).toBeUndefined();
  });
});
