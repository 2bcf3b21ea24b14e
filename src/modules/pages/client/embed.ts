// GET /embed.js: `<script src="{PUBLIC_URL}/embed.js" data-estate="{slug}" async></script>` puts the
// estate's page in an iframe right after the script and keeps the iframe as tall as the page.
// Origin-checked both ways: this side accepts a height only from the service's origin and from its own
// iframe's window; the page (resize.ts) answers only a parent whose origin its embedOrigins allow, and
// sends its height to that origin alone.
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
