// The only script of the prerendered /login (written by web/scripts/prerender.ts, which fills in
// SCRIPTS and ENTRY). The page is complete without the app: the app's 250 KB of scripts load when
// the visitor starts using it (a touch, a key, the pointer moving, a field focused or changed, by
// hand or by a password manager), and what was typed meanwhile is the app's when it takes over
// (web/src/prerender/handoff.ts).
const SCRIPTS = __SCRIPTS__;
const ENTRY = __ENTRY__;
const PASSKEY_DEVICE_KEY = __PASSKEY_DEVICE_KEY__;
const USE = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'input', 'change'];

let started = false;
const start = () => {
  if (started) return;
  started = true;
  for (const type of USE) removeEventListener(type, start, true);
  for (const href of SCRIPTS) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(ENTRY);
};

/** A passkey of this site was added or used here: the app starts at once, for the browser's autofill. */
const passkeyDevice = () => {
  try {
    return localStorage.getItem(PASSKEY_DEVICE_KEY) === '1';
  } catch {
    return false;
  }
};

const page = document.getElementById('prerender');
if (page) {
  // Inert in the HTML: without scripts, nothing typed could be sent.
  page.removeAttribute('inert');
  // Sent before the app is here: the app sends it when it takes over.
  page.addEventListener('submit', (event) => {
    event.preventDefault();
    page.dataset.submitted = 'true';
    start();
  });
  // A button pressed before the app is here (a passkey, say) is pressed again by the app.
  page.addEventListener('click', (event) => {
    const replayed = event.target instanceof Element ? event.target.closest('[data-replay]') : null;
    if (replayed instanceof HTMLElement && replayed.dataset.replay) page.dataset.clicked = replayed.dataset.replay;
    start();
  });
  // A press under way (a pointer down, not yet up) is the app's to wait for: taking the page away
  // between the press and the release would lose the click (web/src/prerender/handoff.ts).
  page.addEventListener('pointerdown', () => (page.dataset.pressed = 'true'), { capture: true, passive: true });
  for (const type of ['pointerup', 'pointercancel']) {
    addEventListener(type, () => delete page.dataset.pressed, { capture: true, passive: true });
  }
  for (const type of USE) addEventListener(type, start, { capture: true, passive: true });
  // The frame after the first painted one.
  if (passkeyDevice()) requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}
