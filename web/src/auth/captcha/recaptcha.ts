/** The part of Google's reCAPTCHA v3 API we use. */
export interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: { siteKey: string; promise: Promise<Grecaptcha> } | undefined;

/**
 * Loads https://www.google.com/recaptcha/api.js once per page (it pulls more from
 * www.gstatic.com and frames www.google.com, which the CSP must allow). A failed load can be
 * retried.
 */
export function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  if (loading?.siteKey === siteKey) return loading.promise;
  const promise = new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const api = window.grecaptcha;
      if (api) api.ready(() => resolve(api));
      else reject(new Error('reCAPTCHA did not start'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.append(script);
  });
  loading = { siteKey, promise };
  promise.catch(() => {
    if (loading?.promise === promise) loading = undefined;
  });
  return promise;
}

/**
 * Google's badge floats over every page once the script ran; it belongs on the pages that use
 * reCAPTCHA (its terms require the badge or their notice there), so it is hidden elsewhere.
 */
export function showRecaptchaBadge(visible: boolean): void {
  for (const badge of document.querySelectorAll<HTMLElement>('.grecaptcha-badge')) {
    badge.style.visibility = visible ? 'visible' : 'hidden';
  }
}
