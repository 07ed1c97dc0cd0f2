import type { LanguageCode } from '@berth/contracts';
import { escapeHtml } from '../../lib/html.ts';

/** Who did a security-relevant change, and from where; `resetLink` adds a "reset password" button. */
export interface SecurityNoticeParams {
  name: string;
  /** A Date is formatted in the mail's language (UTC); a string is shown as given. */
  time: Date | string;
  ip: string | null;
  /** Where to reset the password (the /password/forgot page) if this was not the user. */
  resetLink?: string | undefined;
}

/** The parameters of each kind of mail. Everything here may be user input: it is escaped for HTML. */
export interface MailParams {
  password_reset: { name: string; link: string; minutes: number };
  /** An admin made the account: the link sets the customer's own password (valid `days`). */
  customer_invite: { name: string; inviter: string; link: string; days: number };
  otp_code: { name: string; code: string; link: string; minutes: number };
  verify_email: { name: string; code: string; link: string };
  /** Someone registered with an address that already has an account: its owner is told instead. */
  registration_attempt: { name: string; loginLink: string; resetLink: string };
  password_changed: SecurityNoticeParams;
  two_factor_enabled: SecurityNoticeParams;
  two_factor_disabled: SecurityNoticeParams;
  email_changed: SecurityNoticeParams;
  recovery_codes_regenerated: SecurityNoticeParams;
  passkey_added: SecurityNoticeParams;
  passkey_removed: SecurityNoticeParams;
  /** A reminder before a domain expires (30, 7 and 1 days); `link` goes to its renewal page. */
  /** `expireAt` as an ISO string: mail params travel as JSON in the job queue. */
  domain_expiry: { name: string; domain: string; days: number; expireAt: string; link: string };
  /**
   * Billing (modules/billing): a renewal was charged or its invoice waits (`renewed`, `invoice_due`),
   * a reminder that it is overdue (`overdue`), services stopped for it (`suspended`). `date` (ISO)
   * is when it is due, or when services stop; `amount` is formatted already.
   */
  billing: { name: string; notice: BillingNotice; item: string; invoice: string; amount: string; date: string; link: string };
}

export type BillingNotice =
  | 'renewed'
  | 'renewed_by_card'
  | 'card_declined'
  | 'invoice_due'
  | 'overdue'
  | 'suspended'
  | 'domain_expired'
  | 'domain_lapsed'
  | 'plan_ending'
  | 'certificate_failing';

export type MailKind = keyof MailParams;

export const MAIL_KINDS = [
  'password_reset',
  'customer_invite',
  'otp_code',
  'verify_email',
  'registration_attempt',
  'password_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'email_changed',
  'recovery_codes_regenerated',
  'passkey_added',
  'passkey_removed',
  'domain_expiry',
  'billing',
] as const satisfies readonly MailKind[];

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The notices that tell a user a credential of theirs changed (auth/notifier.ts). */
export type SecurityKind =
  | 'password_changed'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'recovery_codes_regenerated'
  | 'email_changed'
  | 'passkey_added'
  | 'passkey_removed';

/**
 * Every sentence of every mail in one language; the layout is shared, so all languages carry the
 * same parts. In German and Czech the first paragraph continues the greeting ("Guten Tag X, wir …"),
 * hence its lower-case start (DIN 5008; usual in Czech correspondence).
 */
interface Wording {
  locale: string;
  greeting(name: string): string;
  signoff(brand: string): string[];
  linkFallback: string;
  minutes(count: number): string;
  passwordReset: {
    subject(brand: string): string;
    preheader: string;
    intro(brand: string): string;
    button: string;
    validity(minutes: string): string;
    ignore: string;
    footer(brand: string): string;
  };
  customerInvite: {
    subject(brand: string): string;
    preheader: string;
    intro(brand: string, inviter: string): string;
    button: string;
    validity(days: number): string;
    after(brand: string): string;
    footer(brand: string): string;
  };
  otpCode: {
    subject(brand: string): string;
    preheader(minutes: string): string;
    intro(brand: string): string;
    codeLabel: string;
    button: string;
    validity(minutes: string): string;
    ignore: string;
    footer(brand: string): string;
  };
  verifyEmail: {
    subject(brand: string): string;
    preheader: string;
    intro(brand: string): string;
    button: string;
    codeLabel: string;
    ignore: string;
    footer(brand: string): string;
  };
  registrationAttempt: {
    subject(brand: string): string;
    preheader: string;
    intro(brand: string): string;
    loginButton: string;
    forgot: string;
    ignore: string;
    footer(brand: string): string;
  };
  domainExpiry: {
    days(count: number): string;
    subject(brand: string, domain: string, days: string): string;
    preheader(domain: string, date: string): string;
    intro(brand: string, domain: string, date: string, days: string): string;
    domainLabel: string;
    dateLabel: string;
    advice: string;
    button: string;
    footer(brand: string, domain: string): string;
  };
  billing: Record<
    BillingNotice,
    { subject(brand: string, item: string): string; intro(item: string, invoice: string, date: string): string }
  > & {
    invoiceLabel: string;
    amountLabel: string;
    button: string;
    planButton: string;
    domainButton: string;
    footer(brand: string): string;
  };
  security: Record<SecurityKind, { subject(brand: string): string; intro(brand: string): string }> & {
    time: string;
    ip: string;
    unknownIp: string;
    wasYou: string;
    notYou: string;
    button: string;
    footer(brand: string): string;
  };
}

const plural = (locale: string, count: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) =>
  `${count} ${forms[new Intl.PluralRules(locale).select(count)] ?? forms.other}`;

const en: Wording = {
  locale: 'en-GB',
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  signoff: (brand) => ['Kind regards,', `The ${brand} team`],
  linkFallback: 'If the button does not work, copy this link into your browser:',
  minutes: (count) => plural('en', count, { one: 'minute', other: 'minutes' }),
  passwordReset: {
    subject: (brand) => `Reset your password for ${brand}`,
    preheader: 'Choose a new password for your account.',
    intro: (brand) =>
      `We received a request to reset the password of your ${brand} account. Click the button below to choose a new password.`,
    button: 'Reset password',
    validity: (minutes) => `This link is valid for ${minutes} and can be used only once.`,
    ignore: 'If you did not request a password reset, you can ignore this e-mail. Your password stays unchanged.',
    footer: (brand) =>
      `You receive this e-mail because a password reset was requested for your account at ${brand}. If it wasn't you, no action is needed.`,
  },
  customerInvite: {
    subject: (brand) => `Your account at ${brand} is ready`,
    preheader: 'Choose your password to start.',
    intro: (brand, inviter) => `${inviter} has created an account for you at ${brand}. Choose your own password to sign in.`,
    button: 'Choose my password',
    validity: (days) =>
      `This link is valid for ${days} days and can be used only once. Afterwards, "Forgot password" on the login page sends a new one.`,
    after: (brand) => `Then you manage your domains, mailboxes and invoices at ${brand}.`,
    footer: (brand) => `You receive this e-mail because an administrator of ${brand} created an account with this address.`,
  },
  otpCode: {
    subject: (brand) => `Your one-time login code for ${brand}`,
    preheader: (minutes) => `Your login code is valid for ${minutes}.`,
    intro: (brand) => `Use this one-time code to log in to your ${brand} account, or click the button below to log in directly.`,
    codeLabel: 'Your login code',
    button: 'Log in now',
    validity: (minutes) =>
      `The code is valid for ${minutes} and can be used only once. Never share it with anyone: we will never ask you for it.`,
    ignore: 'If you did not try to log in, you can ignore this e-mail. Nobody can log in without this code.',
    footer: (brand) =>
      `You receive this e-mail because a one-time login code was requested for your account at ${brand}. If it wasn't you, you can safely ignore it.`,
  },
  verifyEmail: {
    subject: (brand) => `Confirm your e-mail address for ${brand}`,
    preheader: 'One click to activate your account.',
    intro: (brand) => `Thank you for registering with ${brand}. Please confirm your e-mail address to activate your account.`,
    button: 'Confirm e-mail address',
    codeLabel: 'Your verification code',
    ignore: 'If you did not create an account, you can ignore this e-mail. The account will not be activated.',
    footer: (brand) =>
      `You receive this e-mail because this address was used to register at ${brand}. If it wasn't you, please ignore this e-mail.`,
  },
  registrationAttempt: {
    subject: (brand) => `Someone tried to register at ${brand} with your address`,
    preheader: 'You already have an account.',
    intro: (brand) =>
      `Someone just tried to create a new account at ${brand} with this e-mail address. You already have an account, so no second one was created.`,
    loginButton: 'Log in',
    forgot: 'Forgotten your password? You can choose a new one.',
    ignore: 'If it was not you, you can ignore this e-mail. Nothing about your account has changed.',
    footer: (brand) => `You receive this e-mail because this address was used to register at ${brand}.`,
  },
  domainExpiry: {
    days: (count) => plural('en', count, { one: 'day', other: 'days' }),
    subject: (brand, domain, days) => `Your domain ${domain} at ${brand} expires in ${days}`,
    preheader: (domain, date) => `Renew ${domain} before ${date} to keep it.`,
    intro: (brand, domain, date, days) => `Your domain ${domain} at ${brand} expires on ${date}, in ${days}.`,
    domainLabel: 'Domain',
    dateLabel: 'Expires on',
    advice:
      'Renew it in time so that your website, e-mail and DNS keep working. After the expiry date the domain may be deleted or registered by someone else.',
    button: 'Renew domain',
    footer: (brand, domain) =>
      `You receive this e-mail because you own the domain ${domain} at ${brand}. We remind you 30, 7 and 1 days before a domain expires.`,
  },
  billing: {
    renewed: {
      subject: (brand, item) => `${item} at ${brand} was renewed`,
      intro: (item, invoice) => `${item} was renewed automatically and paid from your credit (invoice ${invoice}). Nothing else to do.`,
    },
    renewed_by_card: {
      subject: (brand, item) => `${item} at ${brand} was renewed`,
      intro: (item, invoice) =>
        `${item} was renewed automatically and charged to your saved card (invoice ${invoice}). Nothing else to do.`,
    },
    card_declined: {
      subject: (brand, item) => `Your card was declined for the renewal of ${item} at ${brand}`,
      intro: (item, invoice, date) =>
        `We could not charge your saved card for the renewal of ${item}. Please pay invoice ${invoice} by ${date}, or save another card: we try again in a few days.`,
    },
    invoice_due: {
      subject: (brand, item) => `Please pay the renewal of ${item} at ${brand}`,
      intro: (item, invoice, date) =>
        `${item} is due for renewal, but your credit does not cover it. Please pay invoice ${invoice} by ${date} so that it keeps running.`,
    },
    overdue: {
      subject: (brand, item) => `Reminder: the renewal of ${item} at ${brand} is unpaid`,
      intro: (item, invoice, date) =>
        `Invoice ${invoice} for ${item} is still unpaid. If it is not paid by ${date}, your websites, FTP and mailbox logins will be suspended.`,
    },
    suspended: {
      subject: (brand) => `Your services at ${brand} are suspended`,
      intro: (item, invoice) =>
        `Invoice ${invoice} for ${item} is unpaid, so your websites, FTP and mailbox logins are suspended. Your mail is still received and kept, and DNS still answers. Pay the invoice and everything resumes within seconds.`,
    },
    domain_expired: {
      subject: (brand, item) => `Your domain ${item} at ${brand} has expired`,
      intro: (item, _invoice, date) =>
        `${item} has expired. Its website, e-mail and DNS keep working until ${date}; renew it before then, or they stop.`,
    },
    domain_lapsed: {
      subject: (brand, item) => `${item} at ${brand} is no longer served`,
      intro: (item) =>
        `${item} expired and was not renewed, so its website, e-mail and DNS have stopped. Renew it and they start again at once.`,
    },
    plan_ending: {
      subject: (brand, item) => `Your hosting plan ${item} at ${brand} ends soon`,
      intro: (item, _invoice, date) =>
        `${item} ends on ${date} and does not renew automatically. Renew it before then (or switch on automatic renewal), or no new domains and mailboxes can be added.`,
    },
    certificate_failing: {
      subject: (brand, item) => `The certificate of ${item} at ${brand} could not be renewed`,
      intro: (item, _invoice, date) =>
        `The certificate of ${item} ends on ${date} and renewing it keeps failing. Until it is renewed, browsers will warn visitors after that day. The domain page says what the certificate authority answered.`,
    },
    invoiceLabel: 'Invoice',
    amountLabel: 'Amount',
    button: 'Pay invoice',
    planButton: 'Renew plan',
    domainButton: 'Open the domain',
    footer: (brand) =>
      `You receive this e-mail because you have services at ${brand}. Auto-renewal can be switched off on each domain's page.`,
  },
  security: {
    password_changed: {
      subject: (brand) => `Your ${brand} password was changed`,
      intro: (brand) => `The password of your ${brand} account was just changed.`,
    },
    two_factor_enabled: {
      subject: (brand) => `Two-factor authentication enabled for your ${brand} account`,
      intro: (brand) =>
        `Two-factor authentication was enabled for your ${brand} account. From now on, you will also need a code from your authenticator app to log in.`,
    },
    two_factor_disabled: {
      subject: (brand) => `Two-factor authentication disabled for your ${brand} account`,
      intro: (brand) =>
        `Two-factor authentication was disabled for your ${brand} account. Your account is now protected by your password only.`,
    },
    email_changed: {
      subject: (brand) => `The e-mail address of your ${brand} account was changed`,
      intro: (brand) => `The e-mail address of your ${brand} account was just changed. This address will no longer receive its messages.`,
    },
    recovery_codes_regenerated: {
      subject: (brand) => `New recovery codes for your ${brand} account`,
      intro: (brand) => `New recovery codes were generated for your ${brand} account. Your previous recovery codes no longer work.`,
    },
    passkey_added: {
      subject: (brand) => `A passkey was added to your ${brand} account`,
      intro: (brand) => `A new passkey was added to your ${brand} account. It can now be used to log in without a password.`,
    },
    passkey_removed: {
      subject: (brand) => `A passkey was removed from your ${brand} account`,
      intro: (brand) => `A passkey was removed from your ${brand} account. It can no longer be used to log in.`,
    },
    time: 'Time',
    ip: 'IP address',
    unknownIp: 'unknown',
    wasYou: 'If this was you, no further action is needed.',
    notYou: "If this wasn't you, reset your password immediately and contact our support.",
    button: 'Reset password',
    footer: (brand) =>
      `You receive this e-mail because we inform you about important security changes to your account at ${brand}. If you did not make this change, reset your password and contact our support.`,
  },
};

const de: Wording = {
  locale: 'de-DE',
  greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
  signoff: (brand) => ['Freundliche Grüße', `Ihr Team von ${brand}`],
  linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
  minutes: (count) => plural('de', count, { one: 'Minute', other: 'Minuten' }),
  passwordReset: {
    subject: (brand) => `Passwort für ${brand} zurücksetzen`,
    preheader: 'Legen Sie ein neues Passwort für Ihr Konto fest.',
    intro: (brand) =>
      `wir haben eine Anfrage erhalten, das Passwort Ihres Kontos bei ${brand} zurückzusetzen. Klicken Sie auf die Schaltfläche, um ein neues Passwort festzulegen.`,
    button: 'Passwort zurücksetzen',
    validity: (minutes) => `Der Link ist ${minutes} gültig und kann nur einmal verwendet werden.`,
    ignore: 'Falls Sie das Zurücksetzen nicht angefordert haben, können Sie diese E-Mail ignorieren. Ihr Passwort bleibt unverändert.',
    footer: (brand) =>
      `Sie erhalten diese E-Mail, weil für Ihr Konto bei ${brand} das Zurücksetzen des Passworts angefordert wurde. Falls Sie das nicht waren, ist nichts weiter zu tun.`,
  },
  customerInvite: {
    subject: (brand) => `Ihr Konto bei ${brand} ist bereit`,
    preheader: 'Wählen Sie Ihr Passwort, um zu beginnen.',
    intro: (brand, inviter) =>
      `${inviter} hat für Sie ein Konto bei ${brand} angelegt. Wählen Sie Ihr eigenes Passwort, um sich anzumelden.`,
    button: 'Mein Passwort wählen',
    validity: (days) =>
      `Der Link ist ${days} Tage gültig und kann nur einmal verwendet werden. Danach sendet „Passwort vergessen“ auf der Anmeldeseite einen neuen.`,
    after: (brand) => `Danach verwalten Sie Ihre Domains, Postfächer und Rechnungen bei ${brand}.`,
    footer: (brand) => `Sie erhalten diese E-Mail, weil ein Administrator von ${brand} ein Konto mit dieser Adresse angelegt hat.`,
  },
  otpCode: {
    subject: (brand) => `Ihr Einmalcode für die Anmeldung bei ${brand}`,
    preheader: (minutes) => `Ihr Anmeldecode ist ${minutes} gültig.`,
    intro: (brand) =>
      `mit diesem Einmalcode melden Sie sich bei Ihrem Konto bei ${brand} an. Oder klicken Sie auf die Schaltfläche, um sich direkt anzumelden.`,
    codeLabel: 'Ihr Anmeldecode',
    button: 'Jetzt anmelden',
    validity: (minutes) =>
      `Der Code ist ${minutes} gültig und kann nur einmal verwendet werden. Geben Sie ihn niemals weiter: Wir werden Sie nie danach fragen.`,
    ignore: 'Falls Sie keine Anmeldung versucht haben, können Sie diese E-Mail ignorieren. Ohne diesen Code kann sich niemand anmelden.',
    footer: (brand) =>
      `Sie erhalten diese E-Mail, weil für Ihr Konto bei ${brand} ein Einmalcode zur Anmeldung angefordert wurde. Falls Sie das nicht waren, können Sie sie bedenkenlos ignorieren.`,
  },
  verifyEmail: {
    subject: (brand) => `Bestätigen Sie Ihre E-Mail-Adresse für ${brand}`,
    preheader: 'Ein Klick, um Ihr Konto zu aktivieren.',
    intro: (brand) =>
      `vielen Dank für Ihre Registrierung bei ${brand}. Bitte bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto zu aktivieren.`,
    button: 'E-Mail-Adresse bestätigen',
    codeLabel: 'Ihr Bestätigungscode',
    ignore: 'Falls Sie kein Konto angelegt haben, können Sie diese E-Mail ignorieren. Das Konto wird nicht aktiviert.',
    footer: (brand) =>
      `Sie erhalten diese E-Mail, weil mit dieser Adresse ein Konto bei ${brand} registriert wurde. Falls Sie das nicht waren, ignorieren Sie diese E-Mail bitte.`,
  },
  registrationAttempt: {
    subject: (brand) => `Registrierungsversuch bei ${brand} mit Ihrer Adresse`,
    preheader: 'Sie haben bereits ein Konto.',
    intro: (brand) =>
      `soeben hat jemand versucht, mit dieser E-Mail-Adresse ein neues Konto bei ${brand} anzulegen. Sie haben bereits ein Konto, daher wurde kein zweites angelegt.`,
    loginButton: 'Anmelden',
    forgot: 'Passwort vergessen? Sie können ein neues festlegen.',
    ignore: 'Falls Sie das nicht waren, können Sie diese E-Mail ignorieren. An Ihrem Konto hat sich nichts geändert.',
    footer: (brand) => `Sie erhalten diese E-Mail, weil mit dieser Adresse eine Registrierung bei ${brand} versucht wurde.`,
  },
  domainExpiry: {
    // Dative after "in": in 1 Tag, in 7 Tagen.
    days: (count) => plural('de', count, { one: 'Tag', other: 'Tagen' }),
    subject: (brand, domain, days) => `Ihre Domain ${domain} bei ${brand} läuft in ${days} ab`,
    preheader: (domain, date) => `Verlängern Sie ${domain} vor dem ${date}.`,
    intro: (brand, domain, date, days) => `Ihre Domain ${domain} bei ${brand} läuft am ${date} ab, also in ${days}.`,
    domainLabel: 'Domain',
    dateLabel: 'Läuft ab am',
    advice:
      'Verlängern Sie sie rechtzeitig, damit Website, E-Mail und DNS weiter funktionieren. Nach dem Ablaufdatum kann die Domain gelöscht oder von jemand anderem registriert werden.',
    button: 'Domain verlängern',
    footer: (brand, domain) =>
      `Sie erhalten diese E-Mail, weil Sie Inhaber der Domain ${domain} bei ${brand} sind. Wir erinnern Sie 30, 7 und 1 Tag vor dem Ablauf einer Domain.`,
  },
  billing: {
    renewed: {
      subject: (brand, item) => `${item} bei ${brand} wurde verlängert`,
      intro: (item, invoice) =>
        `wir haben ${item} automatisch verlängert und aus Ihrem Guthaben bezahlt (Rechnung ${invoice}). Sie müssen nichts weiter tun.`,
    },
    renewed_by_card: {
      subject: (brand, item) => `${item} bei ${brand} wurde verlängert`,
      intro: (item, invoice) =>
        `wir haben ${item} automatisch verlängert und Ihrer gespeicherten Karte belastet (Rechnung ${invoice}). Sie müssen nichts weiter tun.`,
    },
    card_declined: {
      subject: (brand, item) => `Ihre Karte wurde für die Verlängerung von ${item} bei ${brand} abgelehnt`,
      intro: (item, invoice, date) =>
        `wir konnten Ihre gespeicherte Karte für die Verlängerung von ${item} nicht belasten. Bitte bezahlen Sie die Rechnung ${invoice} bis zum ${date} oder speichern Sie eine andere Karte: wir versuchen es in einigen Tagen erneut.`,
    },
    invoice_due: {
      subject: (brand, item) => `Bitte bezahlen Sie die Verlängerung von ${item} bei ${brand}`,
      intro: (item, invoice, date) =>
        `${item} steht zur Verlängerung an, aber Ihr Guthaben reicht nicht aus. Bitte bezahlen Sie die Rechnung ${invoice} bis zum ${date}, damit alles weiterläuft.`,
    },
    overdue: {
      subject: (brand, item) => `Erinnerung: Die Verlängerung von ${item} bei ${brand} ist unbezahlt`,
      intro: (item, invoice, date) =>
        `die Rechnung ${invoice} für ${item} ist noch offen. Wird sie nicht bis zum ${date} bezahlt, werden Ihre Websites, FTP- und Postfach-Anmeldungen gesperrt.`,
    },
    suspended: {
      subject: (brand) => `Ihre Dienste bei ${brand} sind gesperrt`,
      intro: (item, invoice) =>
        `die Rechnung ${invoice} für ${item} ist unbezahlt, daher sind Ihre Websites, FTP- und Postfach-Anmeldungen gesperrt. Ihre E-Mails werden weiter empfangen und aufbewahrt, DNS antwortet weiter. Bezahlen Sie die Rechnung, und alles läuft binnen Sekunden wieder.`,
    },
    domain_expired: {
      subject: (brand, item) => `Ihre Domain ${item} bei ${brand} ist abgelaufen`,
      intro: (item, _invoice, date) =>
        `${item} ist abgelaufen. Website, E-Mail und DNS laufen noch bis zum ${date}; verlängern Sie sie bis dahin, sonst werden sie abgeschaltet.`,
    },
    domain_lapsed: {
      subject: (brand, item) => `${item} bei ${brand} wird nicht mehr bedient`,
      intro: (item) =>
        `${item} ist abgelaufen und wurde nicht verlängert, daher sind Website, E-Mail und DNS abgeschaltet. Verlängern Sie die Domain, und alles läuft sofort wieder.`,
    },
    plan_ending: {
      subject: (brand, item) => `Ihr Hosting-Paket ${item} bei ${brand} endet bald`,
      intro: (item, _invoice, date) =>
        `${item} endet am ${date} und verlängert sich nicht automatisch. Verlängern Sie es vorher (oder schalten Sie die automatische Verlängerung ein), sonst können keine neuen Domains und Postfächer angelegt werden.`,
    },
    certificate_failing: {
      subject: (brand, item) => `Das Zertifikat von ${item} bei ${brand} konnte nicht erneuert werden`,
      intro: (item, _invoice, date) =>
        `Das Zertifikat von ${item} endet am ${date}, und seine Erneuerung schlägt weiter fehl. Wird es nicht erneuert, warnen Browser Besucher ab diesem Tag. Die Seite der Domain nennt die Antwort der Zertifizierungsstelle.`,
    },
    invoiceLabel: 'Rechnung',
    amountLabel: 'Betrag',
    button: 'Rechnung bezahlen',
    planButton: 'Paket verlängern',
    domainButton: 'Domain öffnen',
    footer: (brand) =>
      `Sie erhalten diese E-Mail, weil Sie Dienste bei ${brand} nutzen. Die automatische Verlängerung lässt sich auf der Seite jeder Domain abschalten.`,
  },
  security: {
    password_changed: {
      subject: (brand) => `Ihr Passwort für ${brand} wurde geändert`,
      intro: (brand) => `das Passwort Ihres Kontos bei ${brand} wurde soeben geändert.`,
    },
    two_factor_enabled: {
      subject: (brand) => `Zwei-Faktor-Authentifizierung für Ihr Konto bei ${brand} aktiviert`,
      intro: (brand) =>
        `für Ihr Konto bei ${brand} wurde die Zwei-Faktor-Authentifizierung aktiviert. Bei der Anmeldung benötigen Sie ab jetzt zusätzlich einen Code aus Ihrer Authenticator-App.`,
    },
    two_factor_disabled: {
      subject: (brand) => `Zwei-Faktor-Authentifizierung für Ihr Konto bei ${brand} deaktiviert`,
      intro: (brand) =>
        `für Ihr Konto bei ${brand} wurde die Zwei-Faktor-Authentifizierung deaktiviert. Ihr Konto ist jetzt nur noch durch Ihr Passwort geschützt.`,
    },
    email_changed: {
      subject: (brand) => `E-Mail-Adresse Ihres Kontos bei ${brand} geändert`,
      intro: (brand) =>
        `die E-Mail-Adresse Ihres Kontos bei ${brand} wurde soeben geändert. An diese Adresse werden keine Nachrichten des Kontos mehr gesendet.`,
    },
    recovery_codes_regenerated: {
      subject: (brand) => `Neue Wiederherstellungscodes für Ihr Konto bei ${brand}`,
      intro: (brand) =>
        `für Ihr Konto bei ${brand} wurden neue Wiederherstellungscodes erstellt. Ihre bisherigen Wiederherstellungscodes sind nicht mehr gültig.`,
    },
    passkey_added: {
      subject: (brand) => `Neuer Passkey für Ihr Konto bei ${brand}`,
      intro: (brand) =>
        `zu Ihrem Konto bei ${brand} wurde ein neuer Passkey hinzugefügt. Mit ihm ist jetzt eine Anmeldung ohne Passwort möglich.`,
    },
    passkey_removed: {
      subject: (brand) => `Passkey aus Ihrem Konto bei ${brand} entfernt`,
      intro: (brand) => `aus Ihrem Konto bei ${brand} wurde ein Passkey entfernt. Mit ihm ist keine Anmeldung mehr möglich.`,
    },
    time: 'Zeitpunkt',
    ip: 'IP-Adresse',
    unknownIp: 'unbekannt',
    wasYou: 'Wenn Sie das waren, ist nichts weiter zu tun.',
    notYou: 'Falls Sie das nicht waren, setzen Sie bitte umgehend Ihr Passwort zurück und wenden Sie sich an unseren Support.',
    button: 'Passwort zurücksetzen',
    footer: (brand) =>
      `Sie erhalten diese E-Mail, weil wir Sie über wichtige Sicherheitsänderungen an Ihrem Konto bei ${brand} informieren. Falls Sie diese Änderung nicht vorgenommen haben, setzen Sie Ihr Passwort zurück und kontaktieren Sie unseren Support.`,
  },
};

const cs: Wording = {
  locale: 'cs-CZ',
  // Czech would put the name in the vocative, which cannot be derived reliably; the nominative is the usual compromise.
  greeting: (name) => (name ? `Dobrý den, ${name},` : 'Dobrý den,'),
  signoff: (brand) => ['S pozdravem', `tým ${brand}`],
  linkFallback: 'Pokud tlačítko nefunguje, zkopírujte tento odkaz do prohlížeče:',
  // Accusative after "platí": 1 minutu, 2–4 minuty, 5+ minut.
  minutes: (count) => plural('cs', count, { one: 'minutu', few: 'minuty', many: 'minuty', other: 'minut' }),
  passwordReset: {
    subject: (brand) => `Obnovení hesla k účtu ${brand}`,
    preheader: 'Nastavte si nové heslo ke svému účtu.',
    intro: (brand) => `obdrželi jsme žádost o obnovení hesla k vašemu účtu ${brand}. Nové heslo si nastavíte kliknutím na tlačítko níže.`,
    button: 'Obnovit heslo',
    validity: (minutes) => `Odkaz platí ${minutes} a lze jej použít pouze jednou.`,
    ignore: 'Pokud jste o obnovení hesla nežádali, tento e-mail ignorujte. Vaše heslo zůstane beze změny.',
    footer: (brand) =>
      `Tento e-mail dostáváte, protože bylo pro váš účet ${brand} vyžádáno obnovení hesla. Pokud jste to nebyli vy, nemusíte nic dělat.`,
  },
  customerInvite: {
    subject: (brand) => `Váš účet u ${brand} je připraven`,
    preheader: 'Zvolte si heslo a můžete začít.',
    intro: (brand, inviter) => `${inviter} vám založil(a) účet u ${brand}. Pro přihlášení si zvolte vlastní heslo.`,
    button: 'Zvolit heslo',
    validity: (days) =>
      `Odkaz platí ${days} dní a lze jej použít pouze jednou. Potom vám nový pošle „Zapomenuté heslo“ na přihlašovací stránce.`,
    after: (brand) => `Pak u ${brand} spravujete své domény, schránky a faktury.`,
    footer: (brand) => `Tento e-mail dostáváte, protože správce ${brand} založil účet s touto adresou.`,
  },
  otpCode: {
    subject: (brand) => `Váš jednorázový přihlašovací kód pro ${brand}`,
    preheader: (minutes) => `Přihlašovací kód platí ${minutes}.`,
    intro: (brand) => `k přihlášení do účtu ${brand} použijte tento jednorázový kód, nebo se přihlaste přímo kliknutím na tlačítko níže.`,
    codeLabel: 'Váš přihlašovací kód',
    button: 'Přihlásit se',
    validity: (minutes) => `Kód platí ${minutes} a lze jej použít pouze jednou. Nikomu jej nesdělujte: nikdy vás o něj nebudeme žádat.`,
    ignore: 'Pokud jste se nepokoušeli přihlásit, tento e-mail ignorujte. Bez tohoto kódu se nikdo nepřihlásí.',
    footer: (brand) =>
      `Tento e-mail dostáváte, protože byl pro váš účet ${brand} vyžádán jednorázový přihlašovací kód. Pokud jste to nebyli vy, můžete jej bez obav ignorovat.`,
  },
  verifyEmail: {
    subject: (brand) => `Potvrďte svou e-mailovou adresu pro ${brand}`,
    preheader: 'Jedním kliknutím aktivujete svůj účet.',
    intro: (brand) => `děkujeme za registraci u ${brand}. Pro aktivaci účtu prosím potvrďte svou e-mailovou adresu.`,
    button: 'Potvrdit e-mailovou adresu',
    codeLabel: 'Váš ověřovací kód',
    ignore: 'Pokud jste si účet nezaložili, tento e-mail ignorujte. Účet nebude aktivován.',
    footer: (brand) =>
      `Tento e-mail dostáváte, protože tato adresa byla použita k registraci u ${brand}. Pokud jste to nebyli vy, tento e-mail prosím ignorujte.`,
  },
  registrationAttempt: {
    subject: (brand) => `Pokus o registraci u ${brand} s vaší adresou`,
    preheader: 'Účet už máte.',
    intro: (brand) =>
      `někdo se právě pokusil založit u ${brand} nový účet s touto e-mailovou adresou. Účet už máte, proto druhý založen nebyl.`,
    loginButton: 'Přihlásit se',
    forgot: 'Zapomněli jste heslo? Můžete si nastavit nové.',
    ignore: 'Pokud jste to nebyli vy, tento e-mail ignorujte. Na vašem účtu se nic nezměnilo.',
    footer: (brand) => `Tento e-mail dostáváte, protože tato adresa byla použita při pokusu o registraci u ${brand}.`,
  },
  domainExpiry: {
    // Accusative after "za": za 1 den, za 2–4 dny, za 5+ dní.
    days: (count) => plural('cs', count, { one: 'den', few: 'dny', many: 'dne', other: 'dní' }),
    subject: (brand, domain, days) => `Vaše doména ${domain} u ${brand} vyprší za ${days}`,
    preheader: (domain, date) => `Prodlužte doménu ${domain} do ${date}.`,
    intro: (brand, domain, date, days) => `vaše doména ${domain} u ${brand} vyprší ${date}, tedy za ${days}.`,
    domainLabel: 'Doména',
    dateLabel: 'Vyprší',
    advice:
      'Prodlužte ji včas, aby web, e-mail a DNS fungovaly dál. Po datu vypršení může být doména smazána nebo ji může zaregistrovat někdo jiný.',
    button: 'Prodloužit doménu',
    footer: (brand, domain) =>
      `Tento e-mail dostáváte, protože vlastníte doménu ${domain} u ${brand}. Upozornění posíláme 30, 7 a 1 den před vypršením domény.`,
  },
  billing: {
    renewed: {
      subject: (brand, item) => `${item} u ${brand} bylo prodlouženo`,
      intro: (item, invoice) =>
        `${item} jsme automaticky prodloužili a zaplatili z vašeho kreditu (faktura ${invoice}). Nemusíte nic dělat.`,
    },
    renewed_by_card: {
      subject: (brand, item) => `${item} u ${brand} bylo prodlouženo`,
      intro: (item, invoice) =>
        `${item} jsme automaticky prodloužili a strhli z vaší uložené karty (faktura ${invoice}). Nemusíte nic dělat.`,
    },
    card_declined: {
      subject: (brand, item) => `Vaše karta byla odmítnuta při prodloužení ${item} u ${brand}`,
      intro: (item, invoice, date) =>
        `Z vaší uložené karty se nepodařilo zaplatit prodloužení ${item}. Zaplaťte prosím fakturu ${invoice} do ${date}, nebo uložte jinou kartu: za pár dní to zkusíme znovu.`,
    },
    invoice_due: {
      subject: (brand, item) => `Zaplaťte prosím prodloužení ${item} u ${brand}`,
      intro: (item, invoice, date) =>
        `${item} je třeba prodloužit, ale váš kredit nestačí. Zaplaťte prosím fakturu ${invoice} do ${date}, aby vše běželo dál.`,
    },
    overdue: {
      subject: (brand, item) => `Připomínka: prodloužení ${item} u ${brand} není zaplaceno`,
      intro: (item, invoice, date) =>
        `faktura ${invoice} za ${item} stále není zaplacena. Pokud ji nezaplatíte do ${date}, vaše weby a přihlášení k FTP a schránkám budou pozastaveny.`,
    },
    suspended: {
      subject: (brand) => `Vaše služby u ${brand} jsou pozastaveny`,
      intro: (item, invoice) =>
        `faktura ${invoice} za ${item} není zaplacena, proto jsou vaše weby a přihlášení k FTP a schránkám pozastaveny. Pošta se dál přijímá a uchovává a DNS dál odpovídá. Zaplaťte fakturu a vše se během několika sekund obnoví.`,
    },
    domain_expired: {
      subject: (brand, item) => `Vaše doména ${item} u ${brand} vypršela`,
      intro: (item, _invoice, date) =>
        `doména ${item} vypršela. Web, e-mail a DNS fungují ještě do ${date}; do té doby ji prodlužte, jinak přestanou.`,
    },
    domain_lapsed: {
      subject: (brand, item) => `${item} u ${brand} už není obsluhována`,
      intro: (item) =>
        `doména ${item} vypršela a nebyla prodloužena, proto web, e-mail a DNS přestaly fungovat. Prodlužte ji a ihned se obnoví.`,
    },
    plan_ending: {
      subject: (brand, item) => `Váš hostingový tarif ${item} u ${brand} brzy končí`,
      intro: (item, _invoice, date) =>
        `${item} končí ${date} a automaticky se neprodlouží. Prodlužte jej do té doby (nebo zapněte automatické prodloužení), jinak nepůjde přidávat nové domény a schránky.`,
    },
    certificate_failing: {
      subject: (brand, item) => `Certifikát domény ${item} u ${brand} se nepodařilo obnovit`,
      intro: (item, _invoice, date) =>
        `Certifikát domény ${item} končí ${date} a jeho obnovení stále selhává. Pokud se neobnoví, prohlížeče budou od toho dne návštěvníky varovat. Stránka domény uvádí odpověď certifikační autority.`,
    },
    invoiceLabel: 'Faktura',
    amountLabel: 'Částka',
    button: 'Zaplatit fakturu',
    planButton: 'Prodloužit tarif',
    domainButton: 'Otevřít doménu',
    footer: (brand) =>
      `Tento e-mail dostáváte, protože využíváte služby u ${brand}. Automatické prodlužování lze vypnout na stránce každé domény.`,
  },
  security: {
    password_changed: {
      subject: (brand) => `Heslo k vašemu účtu ${brand} bylo změněno`,
      intro: (brand) => `heslo k vašemu účtu ${brand} bylo právě změněno.`,
    },
    two_factor_enabled: {
      subject: (brand) => `Dvoufázové ověření u účtu ${brand} bylo zapnuto`,
      intro: (brand) =>
        `u vašeho účtu ${brand} bylo zapnuto dvoufázové ověření. Při přihlášení budete nově potřebovat také kód z ověřovací aplikace.`,
    },
    two_factor_disabled: {
      subject: (brand) => `Dvoufázové ověření u účtu ${brand} bylo vypnuto`,
      intro: (brand) => `u vašeho účtu ${brand} bylo vypnuto dvoufázové ověření. Účet je nyní chráněn pouze heslem.`,
    },
    email_changed: {
      subject: (brand) => `E-mailová adresa účtu ${brand} byla změněna`,
      intro: (brand) => `e-mailová adresa vašeho účtu ${brand} byla právě změněna. Na tuto adresu už zprávy účtu chodit nebudou.`,
    },
    recovery_codes_regenerated: {
      subject: (brand) => `Nové záložní kódy k účtu ${brand}`,
      intro: (brand) => `k vašemu účtu ${brand} byly vygenerovány nové záložní kódy. Dosavadní záložní kódy už neplatí.`,
    },
    passkey_added: {
      subject: (brand) => `K účtu ${brand} byl přidán přístupový klíč`,
      intro: (brand) => `k vašemu účtu ${brand} byl přidán nový přístupový klíč (passkey). Lze se jím nyní přihlásit bez hesla.`,
    },
    passkey_removed: {
      subject: (brand) => `Z účtu ${brand} byl odebrán přístupový klíč`,
      intro: (brand) => `z vašeho účtu ${brand} byl odebrán přístupový klíč (passkey). Už se jím nelze přihlásit.`,
    },
    time: 'Čas',
    ip: 'IP adresa',
    unknownIp: 'neznámá',
    wasYou: 'Pokud jste to byli vy, nemusíte nic dělat.',
    notYou: 'Pokud jste to nebyli vy, ihned si obnovte heslo a kontaktujte naši podporu.',
    button: 'Obnovit heslo',
    footer: (brand) =>
      `Tento e-mail dostáváte, protože vás informujeme o důležitých bezpečnostních změnách ve vašem účtu ${brand}. Pokud jste tuto změnu neprovedli, obnovte si heslo a kontaktujte naši podporu.`,
  },
};

const wordings: Record<LanguageCode, Wording> = { en, de, cs };

/** The parts of a mail between greeting and sign-off; text and HTML are both rendered from them. */
type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'code'; label: string; value: string }
  | { type: 'button'; label: string; url: string }
  | { type: 'facts'; rows: [string, string][] };

interface Composition {
  subject: string;
  preheader: string;
  blocks: Block[];
  footer: string;
}

type Composer<K extends MailKind> = (w: Wording, params: MailParams[K], brand: string) => Composition;

const securityNotice =
  (kind: SecurityKind): Composer<SecurityKind> =>
  (w, p, brand) => {
    const time = typeof p.time === 'string' ? p.time : formatTime(p.time, w.locale);
    const blocks: Block[] = [
      { type: 'paragraph', text: w.security[kind].intro(brand) },
      {
        type: 'facts',
        rows: [
          [w.security.time, time],
          [w.security.ip, p.ip || w.security.unknownIp],
        ],
      },
      { type: 'paragraph', text: w.security.wasYou },
      { type: 'paragraph', text: w.security.notYou },
    ];
    if (p.resetLink) blocks.push({ type: 'button', label: w.security.button, url: requireWebLink(p.resetLink) });
    return {
      subject: w.security[kind].subject(brand),
      preheader: capitalise(w.security[kind].intro(brand)),
      blocks,
      footer: w.security.footer(brand),
    };
  };

const composers: { [K in MailKind]: Composer<K> } = {
  password_reset: (w, p, brand) => ({
    subject: w.passwordReset.subject(brand),
    preheader: w.passwordReset.preheader,
    blocks: [
      { type: 'paragraph', text: w.passwordReset.intro(brand) },
      { type: 'button', label: w.passwordReset.button, url: requireWebLink(p.link) },
      { type: 'paragraph', text: w.passwordReset.validity(w.minutes(p.minutes)) },
      { type: 'paragraph', text: w.passwordReset.ignore },
    ],
    footer: w.passwordReset.footer(brand),
  }),
  customer_invite: (w, p, brand) => ({
    subject: w.customerInvite.subject(brand),
    preheader: w.customerInvite.preheader,
    blocks: [
      { type: 'paragraph', text: w.customerInvite.intro(brand, p.inviter) },
      { type: 'button', label: w.customerInvite.button, url: requireWebLink(p.link) },
      { type: 'paragraph', text: w.customerInvite.validity(p.days) },
      { type: 'paragraph', text: w.customerInvite.after(brand) },
    ],
    footer: w.customerInvite.footer(brand),
  }),
  otp_code: (w, p, brand) => ({
    subject: w.otpCode.subject(brand),
    preheader: w.otpCode.preheader(w.minutes(p.minutes)),
    blocks: [
      { type: 'paragraph', text: w.otpCode.intro(brand) },
      { type: 'code', label: w.otpCode.codeLabel, value: p.code },
      { type: 'button', label: w.otpCode.button, url: requireWebLink(p.link) },
      { type: 'paragraph', text: w.otpCode.validity(w.minutes(p.minutes)) },
      { type: 'paragraph', text: w.otpCode.ignore },
    ],
    footer: w.otpCode.footer(brand),
  }),
  verify_email: (w, p, brand) => ({
    subject: w.verifyEmail.subject(brand),
    preheader: w.verifyEmail.preheader,
    blocks: [
      { type: 'paragraph', text: w.verifyEmail.intro(brand) },
      { type: 'button', label: w.verifyEmail.button, url: requireWebLink(p.link) },
      { type: 'code', label: w.verifyEmail.codeLabel, value: p.code },
      { type: 'paragraph', text: w.verifyEmail.ignore },
    ],
    footer: w.verifyEmail.footer(brand),
  }),
  registration_attempt: (w, p, brand) => ({
    subject: w.registrationAttempt.subject(brand),
    preheader: w.registrationAttempt.preheader,
    blocks: [
      { type: 'paragraph', text: w.registrationAttempt.intro(brand) },
      { type: 'button', label: w.registrationAttempt.loginButton, url: requireWebLink(p.loginLink) },
      { type: 'paragraph', text: w.registrationAttempt.forgot },
      { type: 'button', label: w.passwordReset.button, url: requireWebLink(p.resetLink) },
      { type: 'paragraph', text: w.registrationAttempt.ignore },
    ],
    footer: w.registrationAttempt.footer(brand),
  }),
  password_changed: securityNotice('password_changed'),
  two_factor_enabled: securityNotice('two_factor_enabled'),
  two_factor_disabled: securityNotice('two_factor_disabled'),
  email_changed: securityNotice('email_changed'),
  recovery_codes_regenerated: securityNotice('recovery_codes_regenerated'),
  passkey_added: securityNotice('passkey_added'),
  passkey_removed: securityNotice('passkey_removed'),
  billing: (w, p, brand) => {
    const date = formatDate(new Date(p.date), w.locale);
    const notice = w.billing[p.notice];
    return {
      subject: notice.subject(brand, p.item),
      preheader: notice.intro(p.item, p.invoice, date),
      blocks: !p.invoice
        ? [
            { type: 'paragraph', text: notice.intro(p.item, p.invoice, date) },
            {
              type: 'button',
              label:
                p.notice === 'plan_ending'
                  ? w.billing.planButton
                  : p.notice === 'certificate_failing'
                    ? w.billing.domainButton
                    : w.domainExpiry.button,
              url: requireWebLink(p.link),
            },
          ]
        : [
            { type: 'paragraph', text: notice.intro(p.item, p.invoice, date) },
            {
              type: 'facts',
              rows: [
                [w.billing.invoiceLabel, p.invoice],
                [w.billing.amountLabel, p.amount],
              ],
            },
            ...(p.notice === 'renewed' ? [] : [{ type: 'button' as const, label: w.billing.button, url: requireWebLink(p.link) }]),
          ],
      footer: w.billing.footer(brand),
    };
  },
  domain_expiry: (w, p, brand) => {
    const date = formatDate(new Date(p.expireAt), w.locale);
    const days = w.domainExpiry.days(p.days);
    return {
      subject: w.domainExpiry.subject(brand, p.domain, days),
      preheader: w.domainExpiry.preheader(p.domain, date),
      blocks: [
        { type: 'paragraph', text: w.domainExpiry.intro(brand, p.domain, date, days) },
        {
          type: 'facts',
          rows: [
            [w.domainExpiry.domainLabel, p.domain],
            [w.domainExpiry.dateLabel, date],
          ],
        },
        { type: 'paragraph', text: w.domainExpiry.advice },
        { type: 'button', label: w.domainExpiry.button, url: requireWebLink(p.link) },
      ],
      footer: w.domainExpiry.footer(brand, p.domain),
    };
  },
};

/**
 * Renders one transactional mail in the recipient's language. `brand` is the tenant's title: the
 * mail speaks for the tenant, not for Berth.
 */
export function renderMail<K extends MailKind>(kind: K, language: LanguageCode, params: MailParams[K], brand: string): RenderedMail {
  const w = wordings[language];
  const cleanBrand = oneLine(brand);
  const composition = composers[kind](w, params, cleanBrand);
  const mail = { ...composition, subject: oneLine(composition.subject) };
  const greeting = w.greeting(oneLine(params.name));
  const signoff = w.signoff(cleanBrand);
  return {
    subject: mail.subject,
    text: renderText(mail, greeting, signoff),
    html: renderHtml(language, w, mail, greeting, signoff, cleanBrand),
  };
}

/* ---- text ---- */

function renderText(mail: Composition, greeting: string, signoff: string[]): string {
  const parts: string[] = [greeting];
  for (const block of mail.blocks) {
    switch (block.type) {
      case 'paragraph':
        parts.push(block.text);
        break;
      case 'code':
        parts.push(`${block.label}: ${block.value}`);
        break;
      case 'button':
        parts.push(`${block.label}:\n${block.url}`);
        break;
      case 'facts':
        parts.push(block.rows.map(([label, value]) => `${label}: ${value}`).join('\n'));
        break;
    }
  }
  parts.push(signoff.join('\n'));
  // "-- " is the signature separator: mail clients dim or fold what follows.
  parts.push(`-- \n${mail.footer}`);
  return `${parts.join('\n\n')}\n`;
}

/* ---- HTML ---- */

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const MONO = "font-family:'SFMono-Regular',Consolas,'Liberation Mono',Menlo,Courier,monospace;";
const ACCENT = '#1d4ed8';
const INK = '#1f2937';
const MUTED = '#6b7280';
const LINE = '#e5e7eb';

function renderHtml(language: LanguageCode, w: Wording, mail: Composition, greeting: string, signoff: string[], brand: string): string {
  const body = mail.blocks.map((block) => renderBlock(w, block)).join('\n');
  return `<!DOCTYPE html>
<html lang="${language}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(mail.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;">${escapeHtml(mail.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid ${LINE};border-radius:8px;">
<tr><td style="padding:20px 32px;border-bottom:3px solid ${ACCENT};${FONT}font-size:20px;font-weight:bold;color:${INK};">${escapeHtml(brand)}</td></tr>
<tr><td style="padding:28px 32px 12px;${FONT}font-size:15px;line-height:1.6;color:${INK};">
<p style="margin:0 0 16px;">${escapeHtml(greeting)}</p>
${body}
<p style="margin:24px 0 16px;">${signoff.map(escapeHtml).join('<br>')}</p>
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td style="padding:16px 32px;${FONT}font-size:12px;line-height:1.5;color:${MUTED};">${escapeHtml(mail.footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function renderBlock(w: Wording, block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;">${escapeHtml(block.text)}</p>`;
    case 'code': {
      // Short codes (OTP) are meant to be read and typed: large and spaced. Long ones must wrap.
      const short = block.value.length <= 12;
      const size = short ? 'font-size:28px;letter-spacing:6px;' : 'font-size:15px;word-break:break-all;';
      return `<p style="margin:0 0 6px;font-size:13px;color:${MUTED};">${escapeHtml(block.label)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;"><tr><td style="padding:12px 20px;background-color:#f3f4f6;border:1px solid ${LINE};border-radius:6px;${MONO}${size}font-weight:bold;color:#111827;">${escapeHtml(block.value)}</td></tr></table>`;
    }
    case 'button': {
      const href = escapeHtml(block.url);
      return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 20px;"><tr><td align="center" bgcolor="${ACCENT}" style="border-radius:6px;background-color:${ACCENT};"><a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 28px;${FONT}font-size:15px;font-weight:bold;line-height:1.2;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(block.label)}</a></td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:${MUTED};">${escapeHtml(w.linkFallback)}<br><a href="${href}" target="_blank" rel="noopener" style="color:${ACCENT};word-break:break-all;">${escapeHtml(block.url)}</a></p>`;
    }
    case 'facts': {
      const rows = block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:8px 16px;${FONT}font-size:14px;color:${MUTED};white-space:nowrap;">${escapeHtml(label)}</td><td style="padding:8px 16px;${FONT}font-size:14px;font-weight:bold;color:${INK};">${escapeHtml(value)}</td></tr>`,
        )
        .join('');
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;background-color:#f9fafb;border:1px solid ${LINE};border-radius:6px;">${rows}</table>`;
    }
  }
}

/* ---- helpers ---- */

/** Names and titles land in headers and single lines: no line breaks, no runs of blanks. */
const oneLine = (value: string): string => value.replace(/\s+/g, ' ').trim();

const capitalise = (value: string): string => value.charAt(0).toLocaleUpperCase() + value.slice(1);

/** A link in a mail must be absolute http(s); anything else is a bug in the caller and would not work. */
function requireWebLink(link: string): string {
  if (!/^https?:\/\/[^\s]+$/i.test(link)) throw new Error('A mail link must be an absolute http(s) URL without blanks');
  return link;
}

function formatDate(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

function formatTime(time: Date, locale: string): string {
  const text = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(time);
  return `${text} UTC`;
}
