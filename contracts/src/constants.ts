/** Business constants of docs/product.md §9 and the session rules. */
export const OTP_LENGTH = 6;
export const ROUTE_STATE_MESSAGE_MS = 10_000;
/** docs/product.md §9 animation speeds; the web's motion takes its durations from these. */
export const ANIMATION_MS = { slow: 600, fast: 200, default: 400 } as const;
/** Short (hover, menus), medium (menu groups opening), long (the phone drawer). */
export const TRANSITION_MS = [150, 300, 350] as const;
export const MESSAGE_SLIDE_MS = ANIMATION_MS.default;
export const SCROLL_MS = ANIMATION_MS.default;
export const DOMAIN_DROPDOWN_VIRTUAL_THRESHOLD = 100;
export const DOMAIN_DROPDOWN_ROW_PX = 37;
export const THUMBNAIL_SIZE = 30;
export const OPERATOR_TENANT_ID = 1;

/** Logging in with a code sent by e-mail is offered on the operator's tenant only (docs/product.md §6). */
export const offersOtpLogin = (tenantId: number): boolean => tenantId === OPERATOR_TENANT_ID;

/** NIST SP 800-63B-4: at least 15 characters when password is the only factor; accept 64+. */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 256;

export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 24 * 60 * 60 * 1000;
export const SESSION_REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;

export const LANGUAGES = ['en', 'de', 'cs'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];
/** The language picked by hand on the login screens, for the server's prerendered /login. */
export const LANGUAGE_COOKIE = 'berth_language';
/** The browser's time zone (an IANA name), written by the app, for the pages the server renders (dates and times). */
export const TIME_ZONE_COOKIE = 'berth_time_zone';
