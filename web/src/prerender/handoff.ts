import { useLayoutEffect } from 'react';
import type { DehydratedState } from '@tanstack/react-query';
import { TIME_ZONE_COOKIE, tenantSchema, type Tenant } from '@berth/contracts';

/** What the visitor did on the prerendered login screen before the app was there. */
export interface PrerenderedForm {
  /** Each named field's value (a checkbox's: whether it is ticked). */
  values: Record<string, string | boolean>;
  /** The field that had the focus, and its selection. */
  focused?: { name: string; start: number | null; end: number | null };
  /** Whether the form was sent (scripts/login-boot.js held it for the app). */
  submitted: boolean;
  /** The `data-replay` of a button pressed before the app was there, for the app to press. */
  clicked?: string;
  /** The language the page was rendered in: its picker shows it until the visitor picks another. */
  language?: string;
}

/**
 * /login comes with the login screen already in the page (scripts/prerender.ts), over the app's
 * root (styles/global.css); the visitor can type into it before the app is there. It goes once
 * the app shows that screen itself (in the same frame, so nothing flashes), or whatever else the
 * app shows instead; what was typed into it is returned for the app's own form.
 */
export function handOffPrerender(): PrerenderedForm | undefined {
  const page = document.getElementById('prerender');
  if (!page) return undefined;
  const values: PrerenderedForm['values'] = {};
  for (const input of page.querySelectorAll<HTMLInputElement>('input[name]')) {
    values[input.name] = input.type === 'checkbox' ? input.checked : input.value;
  }
  for (const select of page.querySelectorAll<HTMLSelectElement>('select[name]')) values[select.name] = select.value;
  const active = document.activeElement;
  const focused =
    active instanceof HTMLInputElement && active.name && page.contains(active)
      ? {
          name: active.name,
          start: active.type === 'checkbox' ? null : active.selectionStart,
          end: active.type === 'checkbox' ? null : active.selectionEnd,
        }
      : undefined;
  const submitted = page.dataset.submitted === 'true';
  const { clicked, language } = page.dataset;
  page.remove();
  return { values, ...(focused ? { focused } : {}), submitted, ...(clicked ? { clicked } : {}), ...(language ? { language } : {}) };
}

/** Whether a button of the prerendered page is pressed and not yet released (scripts/login-boot.js). */
const pressedOnPrerender = (): boolean => document.getElementById('prerender')?.dataset.pressed === 'true';

/**
 * Runs `handOff` now, or, while a button of the prerendered page is pressed and not yet released
 * (scripts/login-boot.js), once the release and the click it makes (a form sent, a passkey asked
 * for) are through: the page taken away between the two would swallow the click.
 */
export function afterPress(handOff: () => void): void {
  if (!pressedOnPrerender()) return handOff();
  const later = () => {
    removeEventListener('pointerup', later, true);
    removeEventListener('pointercancel', later, true);
    setTimeout(handOff, 0);
  };
  addEventListener('pointerup', later, true);
  addEventListener('pointercancel', later, true);
}

/** For the screens that take the prerendered page's place: the login screen (which adopts the form), and an error. */
export function usePrerenderHandoff(adopt?: (form: PrerenderedForm) => void): void {
  useLayoutEffect(() => {
    const handOff = () => {
      const form = handOffPrerender();
      if (form && adopt) adopt(form);
    };
    const page = document.getElementById('prerender');
    if (pressedOnPrerender()) return afterPress(handOff);
    const picking = document.activeElement;
    if (page && picking instanceof HTMLSelectElement && page.contains(picking)) {
      // A picker opened on the prerendered screen (the language) is not taken away under the
      // visitor's finger: the app takes over once it is closed, with what was picked.
      const later = () => {
        picking.removeEventListener('change', later);
        picking.removeEventListener('blur', later);
        handOff();
      };
      picking.addEventListener('change', later);
      picking.addEventListener('blur', later);
      return;
    }
    handOff();
    // Once, for the first render: the page is gone after it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** The language the page was prerendered in, if the page came prerendered. */
export function prerenderedLanguage(): string | undefined {
  return document.getElementById('prerender')?.dataset.language;
}

/** The host's tenant as the server put it into the prerendered page, so the app needs no GET /api/tenant first. */
export function prerenderedTenant(): Tenant | undefined {
  const json = document.getElementById('prerender')?.dataset.tenant;
  if (!json) return undefined;
  try {
    const parsed = tenantSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The API answers a server-rendered signed-in page was made with (server/src/http/signed-in-page.ts),
 * for the app to start from: its first render is then that page, which takes the prerendered one's
 * place without a flash.
 */
export function prerenderedAnswers(): DehydratedState | undefined {
  const json = document.getElementById('prerender')?.dataset.state;
  if (!json) return undefined;
  try {
    const state = JSON.parse(json) as unknown;
    return typeof state === 'object' && state !== null && Array.isArray((state as DehydratedState).queries)
      ? (state as DehydratedState)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Rendered beside the shell's page, in its Suspense boundary: the prerendered page goes when this one is there. */
export function PrerenderHandOff(): null {
  usePrerenderHandoff();
  return null;
}

/** Tells the server this browser's time zone (a cookie), for the dates and times of the pages it renders. */
export function rememberTimeZone(): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  if (zone) document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
