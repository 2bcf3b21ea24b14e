// GET /embed.js: `<script src="{PUBLIC_URL}/embed.js" data-estate="{slug}" async></script>` puts the
// estate's page in an iframe right after the script and keeps the iframe as tall as the page.
// Origin-checked both ways: this side accepts a height only from the service's origin and from its own
// iframe's window; the page (resize.ts) answers only a parent whose origin its embedOrigins allow, and
// sends its height to that origin alone.
// A host the page's `embedOrigins` leave out gets a blank frame from the browser (CSP frame-ancestors,
// which no script can observe): so this asks /p/{slug}/embed.json for the allowed origins first and, when
// this host is not among them, shows a short message naming the setting instead of the frame.
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  const slug = script?.dataset.estate;
  if (!script || !slug) return;
  const origin = new URL(script.src).origin;
  const frame = document.createElement('iframe');
  frame.src = `${origin}/p/${encodeURIComponent(slug)}`;
  frame.title = script.dataset.title || 'Project page';
  frame.style.cssText = 'display:block;width:100%;height:720px;border:0';
  script.after(frame);
  fetch(`${origin}/p/${encodeURIComponent(slug)}/embed.json`)
    .then((res) => (res.ok ? res.json() : null))
    .then((settings: { embedOrigins?: unknown } | null) => {
      const allowed = settings?.embedOrigins;
      if (!Array.isArray(allowed) || allowed.length === 0 || allowed.includes(location.origin)) return;
      const note = document.createElement('p');
      note.setAttribute('role', 'note');
      note.style.cssText = 'margin:1em 0;padding:1em;border:2px solid #b00;font:16px/1.5 system-ui,sans-serif';
      note.append(`This project page cannot be shown on ${location.origin}: the page's "embedOrigins" setting does not list it. Add it there, or `);
      const link = document.createElement('a');
      link.href = frame.src;
      link.textContent = 'open the project page';
      note.append(link, '.');
      frame.replaceWith(note);
    })
    .catch(() => undefined);
  addEventListener('message', (event) => {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    if (event.data?.type === 'estate-page:show') {
      // A home's card opened in the page: scrolled into the host's view when it is not (never further).
      const top = Number(event.data.top);
      const bottom = Number(event.data.bottom);
      if (!Number.isFinite(top) || !Number.isFinite(bottom)) return;
      const frameTop = frame.getBoundingClientRect().top;
      const above = frameTop + top < 0;
      const below = frameTop + Math.min(bottom, top + innerHeight) > innerHeight;
      if (above || below) scrollBy({ top: frameTop + top - 16, behavior: 'smooth' });
      return;
    }
    const height = event.data?.type === 'estate-page:height' ? Number(event.data.height) : Number.NaN;
    if (height > 0 && height < 1e5) frame.style.height = `${Math.ceil(height)}px`;
  });
  frame.addEventListener('load', () => frame.contentWindow?.postMessage({ type: 'estate-page:hello' }, origin));
})();
