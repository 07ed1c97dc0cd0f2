import type { LanguageCode } from '@berth/contracts';

const en = {
  'validation.required': 'This field is required.',
  'validation.invalid': 'This value is not valid.',
  'validation.too_short': 'Use at least {min} characters.',
  'validation.too_long': 'Use at most {max} characters.',
  'validation.email': 'Enter a valid e-mail address.',
  'validation.failed': 'Some fields need your attention.',
  'auth.failed': 'These credentials do not match our records.',
  'auth.locked': 'This account is locked. Please contact your administrator.',
  'auth.throttled': 'Too many login attempts. Please try again in {wait}.',
  'auth.unauthenticated': 'Please log in to continue.',
  'auth.logged_out': 'You have been logged out.',
  'http.forbidden_cross_site': 'Cross-site requests are not allowed.',
  'http.not_found': 'Not found.',
  'http.bad_request': 'The request could not be read.',
  'http.too_many_requests': 'Too many requests. Please try again in {wait}.',
  'System.UnknownErrorCtrlF5': 'An unknown error occurred. Please reload the page (Ctrl+F5).',
  'validation.totp': "Enter the 6-digit code from your authenticator app.",
  'validation.accepted': "Please accept this to continue.",
  'validation.confirmation': "The two passwords do not match.",
  'password.too_short': "Use at least {min} characters. A few random words make a strong password.",
  'password.common': "This password is too common and appears in lists of breached passwords. Choose another one.",
  'password.same_as_login': "The password must not be your e-mail address or login.",
  'password.current_wrong': "The current password is not correct.",
  'password.reset_sent': "If an account exists for this e-mail address, we have sent a link to reset the password.",
  'password.reset_invalid': "This password reset link is invalid or has expired. Please request a new one.",
  'password.reset_done': "Your password has been changed.",
  'password.changed': "Your password has been changed. Other sessions have been signed out.",
  'twofactor.invalid': "The code is not valid. Please try again.",
  'twofactor.recovery_invalid': "This recovery code is not valid or has already been used.",
  'twofactor.pending_expired': "Your login has expired. Please log in again.",
  'twofactor.throttled': "Too many wrong codes. Please try again in {wait}.",
  'twofactor.enabled': "Two-factor authentication is enabled. Keep your recovery codes in a safe place.",
  'twofactor.disabled': "Two-factor authentication is disabled.",
  'twofactor.already_enabled': "Two-factor authentication is already enabled.",
  'twofactor.no_setup': "Start the setup again: no secret is waiting for confirmation.",
  'twofactor.codes_regenerated': "New recovery codes were generated. The old ones no longer work.",
  'twofactor.recovery_used': "You logged in with a recovery code. Consider generating new recovery codes.",
  'otp.sent': "If an account exists for this e-mail address, we have sent a one-time login code to it.",
  'otp.invalid': "The code is not valid or has expired. Please request a new one.",
  'otp.throttled': "Too many wrong codes. Please try again in {wait}.",
  'registration.email_taken': "An account with this e-mail address already exists.",
  'registration.done': "Welcome! We have sent you an e-mail to verify your address.",
  'registration.throttled': "Too many registrations from your network. Please try again in {wait}.",
  'registration.verified': "Thank you, your e-mail address is verified.",
  'registration.verify_invalid': "This verification link is invalid or has expired.",
  'registration.verification_sent': "We have sent a new verification e-mail.",
  'captcha.missing': "Please confirm that you are not a robot.",
  'captcha.invalid': "The captcha could not be verified. Please try again.",
  'captcha.unavailable': "The captcha service cannot be reached right now. Please try again later.",
  'domain_user.invalid': "The login (uid) or the current password is not correct.",
  'domain_user.password_changed': "The password of {uid} has been changed.",
  'sessions.revoked': "The session has been signed out.",
  'http.forbidden': "You do not have permission to do this.",
  'avatar.invalid': "This file is not an image we can read (use JPEG, PNG, WebP or GIF, at most 5 MB).",
  'language.changed': "The language has been changed.",
} as const;

export type MessageKey = keyof typeof en;
type Dictionary = Record<MessageKey, string>;

const de: Dictionary = {
  'validation.required': 'Dieses Feld ist erforderlich.',
  'validation.invalid': 'Dieser Wert ist ungültig.',
  'validation.too_short': 'Verwenden Sie mindestens {min} Zeichen.',
  'validation.too_long': 'Verwenden Sie höchstens {max} Zeichen.',
  'validation.email': 'Geben Sie eine gültige E-Mail-Adresse ein.',
  'validation.failed': 'Einige Felder benötigen Ihre Aufmerksamkeit.',
  'auth.failed': 'Diese Zugangsdaten stimmen nicht mit unseren Daten überein.',
  'auth.locked': 'Dieses Konto ist gesperrt. Bitte wenden Sie sich an Ihren Administrator.',
  'auth.throttled': 'Zu viele Anmeldeversuche. Bitte versuchen Sie es in {wait} erneut.',
  'auth.unauthenticated': 'Bitte melden Sie sich an, um fortzufahren.',
  'auth.logged_out': 'Sie wurden abgemeldet.',
  'http.forbidden_cross_site': 'Websiteübergreifende Anfragen sind nicht erlaubt.',
  'http.not_found': 'Nicht gefunden.',
  'http.bad_request': 'Die Anfrage konnte nicht gelesen werden.',
  'http.too_many_requests': 'Zu viele Anfragen. Bitte versuchen Sie es in {wait} erneut.',
  'System.UnknownErrorCtrlF5': 'Ein unbekannter Fehler ist aufgetreten. Bitte laden Sie die Seite neu (Strg+F5).',
  'validation.totp': "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.",
  'validation.accepted': "Bitte bestätigen Sie dies, um fortzufahren.",
  'validation.confirmation': "Die beiden Passwörter stimmen nicht überein.",
  'password.too_short': "Verwenden Sie mindestens {min} Zeichen. Einige zufällige Wörter ergeben ein starkes Passwort.",
  'password.common': "Dieses Passwort ist zu verbreitet und erscheint in Listen geleakter Passwörter. Wählen Sie ein anderes.",
  'password.same_as_login': "Das Passwort darf nicht Ihre E-Mail-Adresse oder Ihr Login sein.",
  'password.current_wrong': "Das aktuelle Passwort ist nicht korrekt.",
  'password.reset_sent': "Falls ein Konto mit dieser E-Mail-Adresse existiert, haben wir einen Link zum Zurücksetzen des Passworts gesendet.",
  'password.reset_invalid': "Dieser Link zum Zurücksetzen ist ungültig oder abgelaufen. Bitte fordern Sie einen neuen an.",
  'password.reset_done': "Ihr Passwort wurde geändert.",
  'password.changed': "Ihr Passwort wurde geändert. Andere Sitzungen wurden abgemeldet.",
  'twofactor.invalid': "Der Code ist ungültig. Bitte versuchen Sie es erneut.",
  'twofactor.recovery_invalid': "Dieser Wiederherstellungscode ist ungültig oder wurde bereits verwendet.",
  'twofactor.pending_expired': "Ihre Anmeldung ist abgelaufen. Bitte melden Sie sich erneut an.",
  'twofactor.throttled': "Zu viele falsche Codes. Bitte versuchen Sie es in {wait} erneut.",
  'twofactor.enabled': "Die Zwei-Faktor-Authentifizierung ist aktiviert. Bewahren Sie Ihre Wiederherstellungscodes sicher auf.",
  'twofactor.disabled': "Die Zwei-Faktor-Authentifizierung ist deaktiviert.",
  'twofactor.already_enabled': "Die Zwei-Faktor-Authentifizierung ist bereits aktiviert.",
  'twofactor.no_setup': "Starten Sie die Einrichtung erneut: Es wartet kein Schlüssel auf Bestätigung.",
  'twofactor.codes_regenerated': "Neue Wiederherstellungscodes wurden erzeugt. Die alten sind ungültig.",
  'twofactor.recovery_used': "Sie haben sich mit einem Wiederherstellungscode angemeldet. Erzeugen Sie am besten neue Codes.",
  'otp.sent': "Falls ein Konto mit dieser E-Mail-Adresse existiert, haben wir einen Einmal-Anmeldecode gesendet.",
  'otp.invalid': "Der Code ist ungültig oder abgelaufen. Bitte fordern Sie einen neuen an.",
  'otp.throttled': "Zu viele falsche Codes. Bitte versuchen Sie es in {wait} erneut.",
  'registration.email_taken': "Ein Konto mit dieser E-Mail-Adresse existiert bereits.",
  'registration.done': "Willkommen! Wir haben Ihnen eine E-Mail zur Bestätigung Ihrer Adresse gesendet.",
  'registration.throttled': "Zu viele Registrierungen aus Ihrem Netzwerk. Bitte versuchen Sie es in {wait} erneut.",
  'registration.verified': "Vielen Dank, Ihre E-Mail-Adresse ist bestätigt.",
  'registration.verify_invalid': "Dieser Bestätigungslink ist ungültig oder abgelaufen.",
  'registration.verification_sent': "Wir haben eine neue Bestätigungs-E-Mail gesendet.",
  'captcha.missing': "Bitte bestätigen Sie, dass Sie kein Roboter sind.",
  'captcha.invalid': "Das Captcha konnte nicht überprüft werden. Bitte versuchen Sie es erneut.",
  'captcha.unavailable': "Der Captcha-Dienst ist gerade nicht erreichbar. Bitte versuchen Sie es später erneut.",
  'domain_user.invalid': "Der Login (UID) oder das aktuelle Passwort ist nicht korrekt.",
  'domain_user.password_changed': "Das Passwort von {uid} wurde geändert.",
  'sessions.revoked': "Die Sitzung wurde abgemeldet.",
  'http.forbidden': "Sie haben keine Berechtigung dafür.",
  'avatar.invalid': "Diese Datei ist kein lesbares Bild (JPEG, PNG, WebP oder GIF, höchstens 5 MB).",
  'language.changed': "Die Sprache wurde geändert.",
};

const cs: Dictionary = {
  'validation.required': 'Toto pole je povinné.',
  'validation.invalid': 'Tato hodnota není platná.',
  'validation.too_short': 'Použijte alespoň {min} znaků.',
  'validation.too_long': 'Použijte nejvýše {max} znaků.',
  'validation.email': 'Zadejte platnou e-mailovou adresu.',
  'validation.failed': 'Některá pole vyžadují vaši pozornost.',
  'auth.failed': 'Tyto přihlašovací údaje neodpovídají našim záznamům.',
  'auth.locked': 'Tento účet je zablokován. Obraťte se prosím na svého správce.',
  'auth.throttled': 'Příliš mnoho pokusů o přihlášení. Zkuste to prosím znovu za {wait}.',
  'auth.unauthenticated': 'Pro pokračování se prosím přihlaste.',
  'auth.logged_out': 'Byli jste odhlášeni.',
  'http.forbidden_cross_site': 'Požadavky z jiných webů nejsou povoleny.',
  'http.not_found': 'Nenalezeno.',
  'http.bad_request': 'Požadavek nelze přečíst.',
  'http.too_many_requests': 'Příliš mnoho požadavků. Zkuste to prosím znovu za {wait}.',
  'System.UnknownErrorCtrlF5': 'Došlo k neznámé chybě. Obnovte prosím stránku (Ctrl+F5).',
  'validation.totp': "Zadejte 6místný kód z aplikace pro ověřování.",
  'validation.accepted': "Pro pokračování prosím potvrďte.",
  'validation.confirmation': "Hesla se neshodují.",
  'password.too_short': "Použijte alespoň {min} znaků. Několik náhodných slov tvoří silné heslo.",
  'password.common': "Toto heslo je příliš běžné a objevuje se v seznamech uniklých hesel. Zvolte jiné.",
  'password.same_as_login': "Heslo nesmí být vaše e-mailová adresa ani přihlašovací jméno.",
  'password.current_wrong': "Současné heslo není správné.",
  'password.reset_sent': "Pokud pro tuto e-mailovou adresu existuje účet, poslali jsme na ni odkaz pro obnovení hesla.",
  'password.reset_invalid': "Tento odkaz pro obnovení hesla je neplatný nebo vypršel. Vyžádejte si prosím nový.",
  'password.reset_done': "Vaše heslo bylo změněno.",
  'password.changed': "Vaše heslo bylo změněno. Ostatní relace byly odhlášeny.",
  'twofactor.invalid': "Kód není platný. Zkuste to prosím znovu.",
  'twofactor.recovery_invalid': "Tento záchranný kód není platný nebo již byl použit.",
  'twofactor.pending_expired': "Vaše přihlášení vypršelo. Přihlaste se prosím znovu.",
  'twofactor.throttled': "Příliš mnoho chybných kódů. Zkuste to prosím znovu za {wait}.",
  'twofactor.enabled': "Dvoufázové ověření je zapnuto. Záchranné kódy uložte na bezpečné místo.",
  'twofactor.disabled': "Dvoufázové ověření je vypnuto.",
  'twofactor.already_enabled': "Dvoufázové ověření je již zapnuto.",
  'twofactor.no_setup': "Spusťte nastavení znovu: žádný klíč nečeká na potvrzení.",
  'twofactor.codes_regenerated': "Byly vytvořeny nové záchranné kódy. Staré již neplatí.",
  'twofactor.recovery_used': "Přihlásili jste se záchranným kódem. Zvažte vytvoření nových kódů.",
  'otp.sent': "Pokud pro tuto e-mailovou adresu existuje účet, poslali jsme na ni jednorázový přihlašovací kód.",
  'otp.invalid': "Kód není platný nebo vypršel. Vyžádejte si prosím nový.",
  'otp.throttled': "Příliš mnoho chybných kódů. Zkuste to prosím znovu za {wait}.",
  'registration.email_taken': "Účet s touto e-mailovou adresou již existuje.",
  'registration.done': "Vítejte! Poslali jsme vám e-mail k ověření adresy.",
  'registration.throttled': "Příliš mnoho registrací z vaší sítě. Zkuste to prosím znovu za {wait}.",
  'registration.verified': "Děkujeme, vaše e-mailová adresa je ověřena.",
  'registration.verify_invalid': "Tento ověřovací odkaz je neplatný nebo vypršel.",
  'registration.verification_sent': "Poslali jsme nový ověřovací e-mail.",
  'captcha.missing': "Potvrďte prosím, že nejste robot.",
  'captcha.invalid': "Captchu se nepodařilo ověřit. Zkuste to prosím znovu.",
  'captcha.unavailable': "Služba captcha je nyní nedostupná. Zkuste to prosím později.",
  'domain_user.invalid': "Přihlašovací jméno (uid) nebo současné heslo není správné.",
  'domain_user.password_changed': "Heslo účtu {uid} bylo změněno.",
  'sessions.revoked': "Relace byla odhlášena.",
  'http.forbidden': "K této akci nemáte oprávnění.",
  'avatar.invalid': "Tento soubor není čitelný obrázek (JPEG, PNG, WebP nebo GIF, nejvýše 5 MB).",
  'language.changed': "Jazyk byl změněn.",
};

const dictionaries: Record<LanguageCode, Dictionary> = { en, de, cs };

export function translate(lang: LanguageCode, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = dictionaries[lang][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}

/** Picks the best supported language from an Accept-Language header. */
export function languageFromHeader(header: string | undefined, fallback: LanguageCode = 'en'): LanguageCode {
  if (!header) return fallback;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { code: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => entry.code && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q);
  for (const entry of ranked) if (isLanguage(entry.code)) return entry.code;
  return fallback;
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

export function isLanguage(code: string): code is LanguageCode {
  return code === 'en' || code === 'de' || code === 'cs';
}
