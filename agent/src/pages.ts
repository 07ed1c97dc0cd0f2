import type { WebSite } from '@berth/contracts';

/** The agent's own pages, in the customer's language: the placeholder of a new site, and "suspended". */
const TEXTS: Record<string, { ready: string; readyBody: string; suspended: string; suspendedBody: string }> = {
  en: {
    ready: 'This website is ready',
    readyBody: 'Upload your files over FTPS to replace this page.',
    suspended: 'This website is suspended',
    suspendedBody: 'Please contact your hosting provider.',
  },
  de: {
    ready: 'Diese Website ist bereit',
    readyBody: 'Laden Sie Ihre Dateien per FTPS hoch, um diese Seite zu ersetzen.',
    suspended: 'Diese Website ist gesperrt',
    suspendedBody: 'Bitte wenden Sie sich an Ihren Hosting-Anbieter.',
  },
  cs: {
    ready: 'Tento web je připraven',
    readyBody: 'Nahrajte své soubory přes FTPS a nahradí tuto stránku.',
    suspended: 'Tento web je pozastaven',
    suspendedBody: 'Obraťte se prosím na svého poskytovatele hostingu.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(lang: string, title: string, heading: string, body: string, footer: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f5f7fa;color:#1f2933}
main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.75rem;margin:0 0 .75rem}p{margin:.5rem 0;color:#52606d}</style></head>
<body><main><h1>${heading}</h1><p>${body}</p><p><small>${footer}</small></p></main></body>
</html>
`;
}

export function placeholderPage(site: WebSite): string {
  const lang = TEXTS[site.language] ? site.language : 'en';
  const text = TEXTS[lang]!;
  return page(lang, escapeHtml(site.name), text.ready, text.readyBody, escapeHtml(site.name));
}

export function suspendedPage(site: WebSite): string {
  const lang = TEXTS[site.language] ? site.language : 'en';
  const text = TEXTS[lang]!;
  return page(lang, text.suspended, text.suspended, text.suspendedBody, escapeHtml(site.tenant_name));
}
