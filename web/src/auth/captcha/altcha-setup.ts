/*
 * The ALTCHA widget, loaded on demand (only where the captcha is ALTCHA). The "external" build
 * ships its stylesheet and proof-of-work workers as separate files instead of an inline <style>
 * and blob: workers, so the CSP needs nothing beyond 'self' (workers fall back to script-src).
 */
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/de';
import 'altcha/i18n/cs';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

// The only algorithm the server issues (server/src/modules/captcha/service.ts).
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker({ name: 'altcha-pbkdf2' }));
