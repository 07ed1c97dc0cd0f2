import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@berth/contracts';
import { MAIL_KINDS, renderMail, type MailKind, type MailParams } from './templates.ts';
import { escapeHtml } from '../../lib/html.ts';

const EVIL_NAME = `<script>alert("x")</script> O'Brien & Co`;
const EVIL_BRAND = '<img src=x onerror=alert(1)> Hosting';
const LINK = 'https://panel.example.com/password/reset/u1/tok?x=1&y="2"';
const SAFE_LINK = 'https://panel.example.com/password/otplogin?uniq_id=abc&otp=K7Q2ZP';

const samples: { [K in MailKind]: MailParams[K] } = {
  password_reset: { name: EVIL_NAME, link: LINK, minutes: 60 },
  customer_invite: { name: EVIL_NAME, inviter: EVIL_NAME, link: LINK, days: 7 },
  otp_code: { name: EVIL_NAME, code: 'K7Q2ZP', link: SAFE_LINK, minutes: 10 },
  verify_email: { name: EVIL_NAME, code: 'vfy-3c1d9e2a7b', link: 'https://panel.example.com/register/verify/vfy-3c1d9e2a7b' },
  registration_attempt: {
    name: EVIL_NAME,
    loginLink: 'https://panel.example.com/login',
    resetLink: 'https://panel.example.com/password/forgot',
  },
  domain_expiry: {
    name: EVIL_NAME,
    domain: 'bücher.example',
    days: 7,
    expireAt: '2026-11-08T09:00:00.000Z',
    link: 'https://panel.example.com/host/domain/42/renew',
  },
  billing: {
    name: EVIL_NAME,
    notice: 'overdue',
    item: 'bücher.example',
    invoice: '2026-0042',
    amount: '€12.10',
    date: '2026-11-22T00:00:00.000Z',
    link: 'https://panel.example.com/account/invoices/42',
  },
  password_changed: { name: EVIL_NAME, time: new Date('2026-11-01T09:05:00Z'), ip: '203.0.113.7' },
  two_factor_enabled: { name: EVIL_NAME, time: new Date('2026-11-01T09:05:00Z'), ip: '2001:db8::1' },
  two_factor_disabled: {
    name: EVIL_NAME,
    time: '2026-11-01 09:05 UTC',
    ip: null,
    resetLink: 'https://panel.example.com/password/forgot',
  },
  recovery_codes_regenerated: { name: EVIL_NAME, time: new Date('2026-11-01T09:05:00Z'), ip: '198.51.100.20' },
  email_changed: { name: EVIL_NAME, time: new Date('2026-11-01T09:05:00Z'), ip: '198.51.100.21' },
  passkey_added: { name: EVIL_NAME, time: new Date('2026-11-01T09:05:00Z'), ip: '198.51.100.22' },
  passkey_removed: { name: EVIL_NAME, time: new Date('2026-11-01T09:05:00Z'), ip: '198.51.100.23' },
};

const render = <K extends MailKind>(kind: K, language: (typeof LANGUAGES)[number], brand = 'Acme Hosting') =>
  renderMail(kind, language, samples[kind], brand);

const footerStart = { en: 'You receive this e-mail because', de: 'Sie erhalten diese E-Mail, weil', cs: 'Tento e-mail dostáváte, protože' };

describe('renderMail', () => {
  for (const kind of MAIL_KINDS) {
    for (const language of LANGUAGES) {
      it(`${kind} in ${language}: subject, greeting, footer, links and codes in both parts`, () => {
        const mail = render(kind, language);
        expect(mail.subject.length).toBeGreaterThan(10);
        expect(mail.subject).toContain('Acme Hosting');
        expect(mail.subject).not.toMatch(/[\r\n]/);
        expect(mail.html).toMatch(new RegExp(`^<!DOCTYPE html>\\n<html lang="${language}"`));
        expect(mail.html).toContain('<meta charset="utf-8">');
        expect(mail.html).toContain('Acme Hosting');
        expect(mail.text).toContain(footerStart[language]);
        expect(mail.html).toContain(footerStart[language]);
        // The greeting names the user, escaped in HTML and verbatim in text.
        expect(mail.text.split('\n')[0]).toContain(EVIL_NAME);
        expect(mail.html).toContain(escapeHtml(EVIL_NAME));

        const params = samples[kind] as Partial<Record<'link' | 'code' | 'resetLink', string>>;
        const link = params.link ?? params.resetLink;
        if (link) {
          expect(mail.text).toContain(link);
          expect(mail.html).toContain(`href="${escapeHtml(link)}"`);
        }
        if (params.code) {
          expect(mail.text).toContain(params.code);
          expect(mail.html).toContain(params.code);
        }
      });
    }
  }

  it('never puts user input into the HTML unescaped', () => {
    for (const kind of MAIL_KINDS) {
      for (const language of LANGUAGES) {
        const { html, subject } = render(kind, language, EVIL_BRAND);
        expect(html).not.toContain('<script');
        expect(html).not.toContain('<img');
        expect(html).not.toContain(`O'Brien`);
        expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; Co');
        expect(subject).toContain(EVIL_BRAND); // a subject is plain text; the mail library encodes it
      }
    }
    expect(render('password_reset', 'en').html).toContain('y=&quot;2&quot;');
  });

  it('speaks each language', () => {
    expect(render('password_reset', 'en').text).toContain('valid for 60 minutes');
    expect(render('password_reset', 'de').text).toContain('60 Minuten gültig');
    expect(render('password_reset', 'cs').text).toContain('platí 60 minut');
    expect(render('otp_code', 'cs').text).toContain('platí 10 minut');
    const csFew = renderMail('otp_code', 'cs', { ...samples.otp_code, minutes: 3 }, 'Acme').text;
    expect(csFew).toContain('platí 3 minuty');
    const enOne = renderMail('password_reset', 'en', { ...samples.password_reset, minutes: 1 }, 'Acme').text;
    expect(enOne).toContain('valid for 1 minute ');
    expect(render('two_factor_enabled', 'de').subject).toContain('Zwei-Faktor-Authentifizierung');
    expect(render('recovery_codes_regenerated', 'cs').subject).toContain('záložní kódy');
  });

  it('formats the time of a security notice in the language, in UTC, and shows the IP', () => {
    expect(render('password_changed', 'en').text).toContain('1 November 2026 at 09:05 UTC');
    expect(render('password_changed', 'de').text).toContain('1. November 2026 um 09:05 UTC');
    expect(render('password_changed', 'cs').text).toContain('1. listopadu 2026');
    expect(render('password_changed', 'en').text).toContain('IP address: 203.0.113.7');
    expect(render('two_factor_disabled', 'en').text).toContain('IP address: unknown');
    expect(render('two_factor_disabled', 'en').text).toContain('2026-11-01 09:05 UTC');
  });

  it('tells the user what to do if it was not them', () => {
    expect(render('password_changed', 'en').text).toContain("If this wasn't you, reset your password");
    expect(render('password_reset', 'en').text).toContain('If you did not request a password reset');
    // Without a reset link, a security notice has no button.
    expect(render('password_changed', 'en').html).not.toContain('<a href');
    expect(render('two_factor_disabled', 'en').html).toContain('href="https://panel.example.com/password/forgot"');
  });

  it('greets without a name when there is none', () => {
    const mail = renderMail('verify_email', 'de', { ...samples.verify_email, name: '  ' }, 'Acme');
    expect(mail.text.startsWith('Guten Tag,\n')).toBe(true);
  });

  it('keeps line breaks out of the subject and greeting', () => {
    const mail = renderMail(
      'password_reset',
      'en',
      { ...samples.password_reset, name: 'Eve\r\nBcc: x@y' },
      'Acme\r\nBcc: evil@example.com',
    );
    expect(mail.subject).toBe('Reset your password for Acme Bcc: evil@example.com');
    expect(mail.text.split('\n')[0]).toBe('Hello Eve Bcc: x@y,');
  });

  it('refuses a link that is not absolute http(s)', () => {
    expect(() => renderMail('password_reset', 'en', { ...samples.password_reset, link: '/password/reset/a/b' }, 'Acme')).toThrow();
    expect(() => renderMail('password_reset', 'en', { ...samples.password_reset, link: 'javascript:alert(1)' }, 'Acme')).toThrow();
  });
});
