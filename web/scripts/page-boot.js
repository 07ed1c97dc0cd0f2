// The only script in the head of a signed-in page the server rendered (server/src/http/signed-in-page.ts,
// written to dist/ by web/scripts/prerender.ts). The page is there before any of the app's code:
// the app's scripts are asked for once that page is painted, so on a slow network they do not
// hold up the page's stylesheets; the app then takes the page over (web/src/prerender/handoff.ts).
const page = document.getElementById('prerender');
const start = () => {
  const scripts = JSON.parse(page.dataset.scripts);
  for (const href of scripts) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(page.dataset.entry);
};
// The frame after the first painted one.
if (page) requestAnimationFrame(() => setTimeout(start, 0));
