// The page inside an embed (embed.ts on the host page): tells its parent how tall it is, only once the
// parent said hello from an origin the estate's embedOrigins allow (`<body data-embed-origins="…">`,
// space-separated; absent or empty: any origin, as frame-ancestors then allows any), and only to that origin.
let parentOrigin = '';

export function initResize(): void {
  if (window.parent === window) return;
  const allowed = (document.body.dataset.embedOrigins ?? '').split(/\s+/).filter(Boolean);
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (!parentOrigin || height === last) return;
    last = height;
    window.parent.postMessage({ type: 'estate-page:height', height }, parentOrigin);
  };
  addEventListener('message', (event) => {
    if (event.source !== window.parent || event.data?.type !== 'estate-page:hello' || event.origin === 'null') return;
    if (allowed.length > 0 && !allowed.includes(event.origin)) return;
    parentOrigin = event.origin;
    last = 0;
    send();
  });
  new ResizeObserver(send).observe(document.documentElement);
}

/** In an embed (as tall as its content), asks the host to scroll so `element` is in its view. */
export function showInParent(element: Element): void {
  if (window.parent === window || !parentOrigin) return;
  const box = element.getBoundingClientRect();
  const top = Math.round(box.top + scrollY);
  window.parent.postMessage({ type: 'estate-page:show', top, bottom: top + Math.round(box.height) }, parentOrigin);
}
