import { $, $$, swallowClickAfterDrag } from '../../client/dom.js';
import { NAVIGATOR } from './client.js';

/** A home's shape is a target of at least this many CSS pixels at the zoom offered (DECISIONS "Phones"). */
const TARGET_PX = 24;
const STEP = 1.5;
const DOUBLE_TAP_MS = 350;

/**
 * Zoom on a navigator's render, besides the browser's pinch: the "+" and "−" buttons under the render
 * (`.view-controls [data-zoom]`, server-rendered) and a double tap or double click on the render. The
 * image and its shapes scale together inside the frame's stage, which clips them, so nothing covers the
 * page; zoomed, a drag pans instead of turning the view. The zoom offered goes to at least 2x, and far
 * enough that the smallest home's shape is 24 x 24 px.
 */
export function initZoom(root: HTMLElement): void {
  const controls = $$('.view-controls', root).find((c) => c.closest(NAVIGATOR) === root);
  const stages = $$('.frames > figure .frame-stage', root).filter((s) => s.closest(NAVIGATOR) === root);
  if (!controls || stages.length === 0) return;
  const zoomIn = $<HTMLButtonElement>('[data-zoom="1"]', controls);
  const zoomOut = $<HTMLButtonElement>('[data-zoom="-1"]', controls);
  let scale = 1;
  let x = 0;
  let y = 0;
  const shown = () => stages.find((s) => !s.closest<HTMLElement>('figure')?.hidden) ?? stages[0]!;
  const layers = (stage: HTMLElement) => $$<HTMLElement | SVGElement>(':scope > img, :scope > picture, :scope > svg.overlay', stage);

  /** The zoom offered: 2x, or more when the smallest shape needs it to reach 24 px (at most 8x). */
  const most = () => {
    let smallest = Number.POSITIVE_INFINITY;
    for (const shape of $$('svg a[data-apartment-id]', shown())) {
      const box = shape.getBoundingClientRect();
      const side = Math.min(box.width, box.height) / scale;
      if (side > 0) smallest = Math.min(smallest, side);
    }
    return Math.min(8, Math.max(2, Number.isFinite(smallest) ? Math.ceil((TARGET_PX / smallest) * 100) / 100 : 2));
  };
  const apply = () => {
    const stage = shown();
    const w = stage.clientWidth;
    const h = stage.clientHeight;
    x = Math.min(0, Math.max(w - w * scale, x));
    y = Math.min(0, Math.max(h - h * scale, y));
    for (const s of stages) for (const layer of layers(s)) layer.style.transform = scale === 1 ? '' : `translate(${x}px, ${y}px) scale(${scale})`;
    root.classList.toggle('is-zoomed', scale > 1);
    // most() is at least 2, so unzoomed "Zoom in" is never at its limit: no shape is measured while the page loads.
    if (zoomIn) zoomIn.disabled = scale > 1 && scale >= most() - 0.001;
    if (zoomOut) zoomOut.disabled = scale <= 1;
  };
  /** Zooms to `next`, keeping the point (cx, cy) of the stage (its own pixels) where it is. */
  const zoomTo = (next: number, cx?: number, cy?: number) => {
    const stage = shown();
    const px = cx ?? stage.clientWidth / 2;
    const py = cy ?? stage.clientHeight / 2;
    const clamped = Math.max(1, Math.min(most(), next));
    x = px - ((px - x) / scale) * clamped;
    y = py - ((py - y) / scale) * clamped;
    scale = clamped < 1.01 ? 1 : clamped;
    apply();
  };
  zoomIn?.addEventListener('click', () => zoomTo(Math.min(most(), scale * STEP)));
  zoomOut?.addEventListener('click', () => zoomTo(scale / STEP));

  // A double tap (touch) or double click zooms in where it lands; at the most, back to the whole render.
  const toggleAt = (stage: HTMLElement, clientX: number, clientY: number) => {
    const box = stage.getBoundingClientRect();
    if (scale >= most() - 0.001) zoomTo(1);
    else zoomTo(scale * 2, clientX - box.left, clientY - box.top);
  };
  let lastTap = { at: 0, x: 0, y: 0 };
  let touchToggled = 0;
  let pan: { id: number; x: number; y: number; moved: boolean } | null = null;
  let panned = false;
  for (const stage of stages) {
    stage.addEventListener('dblclick', (event) => {
      event.preventDefault();
      // A double tap the touch handler below took may also come as a dblclick: once only.
      if (performance.now() - touchToggled < 600) return;
      toggleAt(stage, event.clientX, event.clientY);
    });
    stage.addEventListener('pointerup', (event) => {
      if (event.pointerType !== 'touch' || panned) return;
      const now = performance.now();
      const near = Math.abs(event.clientX - lastTap.x) < 30 && Math.abs(event.clientY - lastTap.y) < 30;
      if (now - lastTap.at < DOUBLE_TAP_MS && near) {
        lastTap = { at: 0, x: 0, y: 0 };
        touchToggled = now;
        toggleAt(stage, event.clientX, event.clientY);
      } else lastTap = { at: now, x: event.clientX, y: event.clientY };
    });
    // Zoomed, a drag pans (navigator.ts leaves the turning to an unzoomed render).
    stage.addEventListener('pointerdown', (event) => {
      panned = false;
      if (scale === 1 || event.button !== 0) return;
      pan = { id: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
    });
    stage.addEventListener('pointermove', (event) => {
      if (!pan || event.pointerId !== pan.id) return;
      const dx = event.clientX - pan.x;
      const dy = event.clientY - pan.y;
      if (!pan.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
      if (!pan.moved) stage.setPointerCapture(event.pointerId);
      pan = { ...pan, x: event.clientX, y: event.clientY, moved: true };
      panned = true;
      x += dx;
      y += dy;
      apply();
    });
    const end = () => {
      pan = null;
    };
    stage.addEventListener('pointerup', end);
    stage.addEventListener('pointercancel', end);
  }
  // A pan is not also a click on the shape it ended on.
  swallowClickAfterDrag(root, () => {
    const was = panned;
    panned = false;
    return was;
  });
  addEventListener('resize', apply);
  apply();
}
