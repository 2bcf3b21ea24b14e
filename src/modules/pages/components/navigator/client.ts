import { $, $$, el, modified, swallowClickAfterDrag } from '../../client/dom.js';
import type { Words } from '../../client/words.js';
import { frameOfQuery, shownIndex } from '../../shared/frames.js';

/**
 * Rotation of a navigator between its frames (server markup: `section.navigator[data-starting-angle]`
 * holding `.frames > figure[data-angle]`, each an image and its SVG overlay of shapes
 * `a[data-apartment-id]`, and under them `.view-controls`: Previous/Next buttons and a "View" link per
 * frame). One frame is shown at a time, starting where the server started (shared/frames.ts), turned by
 * the buttons, the view links, a horizontal drag, or the arrow keys while focus is in the frame. A live
 * region says which view is shown; hover or focus on a shape shows its label (name, status, price).
 * Only the frame shown first comes with its shapes: the others' are fetched when they are shown.
 */
export interface Navigator {
  root: HTMLElement;
  /** Shows the frame that holds the shape of this apartment, if any; true when one does. */
  reveal(apartmentId: string): boolean;
}

/** A navigator section (nested ones are sections inside their parent's). */
export const NAVIGATOR = 'section[data-module="navigator"]';
const DRAG_STEP_PX = 40;

export function initNavigator(root: HTMLElement, words: Words): Navigator | null {
  const holder = $('.frames', root);
  if (!holder) return null;
  // Own frames only (in the server's order: the starting rule indexes the same list); turned by angle.
  const listed = Array.from(holder.children) as HTMLElement[];
  if (listed.length === 0) return null;
  // The frame the server showed: the address's `?frame=` (a "View" link's page), else the starting one.
  const first =
    listed[
      shownIndex(
        listed.map((f) => ({ id: f.dataset.frameId ?? '', angle: Number(f.dataset.angle) })),
        Number(root.dataset.startingAngle ?? 0),
        frameOfQuery(new URLSearchParams(location.search).get('frame')),
      )
    ]!;
  for (const frame of listed) hydrateShapes(frame);
  const frames = [...listed].sort((a, b) => Number(a.dataset.angle) - Number(b.dataset.angle));
  let current = frames.indexOf(first);
  const stageOf = (frame: HTMLElement) => $('.frame-stage', frame) ?? frame;
  const mine = (event: Event) => (event.target as Element).closest(NAVIGATOR) === root;

  root.classList.add('is-rotatable');
  const status = root.appendChild(el('p', { class: 'visually-hidden', 'aria-live': 'polite' }));
  const controls = $$('.view-controls', root).find((c) => c.closest(NAVIGATOR) === root) ?? null;
  const angleLinks = controls ? $$<HTMLAnchorElement>('.angles a[data-angle]', controls) : [];
  const needle = controls ? $('.compass-needle', controls) : null;
  if (controls) initSidebarToggle(controls);
  const show = (index: number, announce: boolean) => {
    current = (index + frames.length) % frames.length;
    const frame = frames[current]!;
    frames.forEach((f, i) => {
      f.hidden = i !== current;
    });
    for (const link of angleLinks) {
      if (link.hash === `#${frame.id}`) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
    // compassEnabled: the needle points north in this frame (the server wrote each frame's turn).
    if (needle && frame.dataset.north !== undefined) needle.setAttribute('transform', `rotate(${Number(frame.dataset.north)} 20 20)`);
    if (announce) {
      const name = $('figcaption', frame)?.textContent?.trim();
      status.textContent = `${words('viewOf', { n: current + 1, total: frames.length })}${name ? `: ${name}` : ''}`;
      // The frame's shapes, then (when the browser is idle) its neighbours', so turning on finds them there.
      void loadShapes(frame);
      const soon = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
      soon(() => {
        void loadShapes(frames[(current + 1) % frames.length]!);
        void loadShapes(frames[(current - 1 + frames.length) % frames.length]!);
      });
    }
  };
  const turn = (step: number) => show(current + step, true);

  initLabels(root);
  if (frames.length > 1 && controls) {
    for (const button of $$<HTMLButtonElement>('[data-rotate]', controls)) {
      button.addEventListener('click', () => turn(Number(button.dataset.rotate) || 1));
    }
    // The view links (one per angle) turn to their frame instead of jumping to it.
    for (const link of angleLinks) {
      link.addEventListener('click', (event) => {
        const index = frames.findIndex((f) => `#${f.id}` === link.hash);
        if (index < 0 || modified(event)) return;
        event.preventDefault();
        show(index, true);
      });
    }
    // Each frame's stage takes focus (one tab stop: the others are hidden) and turns with the arrow keys.
    for (const frame of frames) {
      const stage = stageOf(frame);
      stage.tabIndex = 0;
      stage.setAttribute('role', 'group');
      stage.setAttribute('aria-label', root.getAttribute('aria-label') ?? '');
    }
    root.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
      if (!step || event.altKey || event.ctrlKey || event.metaKey || !mine(event)) return;
      if (!(event.target as Element).closest('figure[data-angle]')) return;
      event.preventDefault();
      const focusedStage = document.activeElement === stageOf(frames[current]!);
      turn(step);
      if (focusedStage) stageOf(frames[current]!).focus();
    });

    // canFreelyRotate: a horizontal drag turns through the frames (mirroredRotationCameraMovement: the other way).
    const free = root.dataset.freeRotate === 'true';
    const direction = root.dataset.mirrored === 'true' ? -1 : 1;
    let originX: number | null = null;
    let moved = false;
    root.addEventListener('pointerdown', (event) => {
      // Zoomed (zoom.ts), a drag pans the render instead.
      if (!free || event.button !== 0 || root.classList.contains('is-zoomed') || !mine(event) || !(event.target as Element).closest('figure[data-angle]'))
        return;
      originX = event.clientX;
      moved = false;
    });
    root.addEventListener('pointermove', (event) => {
      if (originX === null) return;
      const dx = event.clientX - originX;
      if (Math.abs(dx) < DRAG_STEP_PX) return;
      if (!moved) root.setPointerCapture(event.pointerId);
      moved = true;
      originX = event.clientX;
      turn((dx < 0 ? 1 : -1) * direction);
    });
    const end = () => {
      originX = null;
    };
    root.addEventListener('pointerup', end);
    root.addEventListener('pointercancel', end);
    // A drag that turned the view is not also a click on the shape it ended on.
    swallowClickAfterDrag(root, () => {
      const was = moved;
      moved = false;
      return was;
    });
    // Images drag as files by default; a drag here turns the view instead.
    root.addEventListener('dragstart', (event) => {
      if (mine(event)) event.preventDefault();
    });
  }
  show(current, false);

  return {
    root,
    reveal(apartmentId) {
      const holds = (frame: HTMLElement) => frame.querySelector(`[data-apartment-id="${CSS.escape(apartmentId)}"]`) !== null;
      if (holds(frames[current]!)) return true;
      const index = frames.findIndex(holds);
      if (index >= 0) {
        show(index, true);
        return true;
      }
      // Not in a frame whose shapes are here: fetch the others' (once), then turn to one that has it.
      const pending = frames.filter((f) => $('svg.overlay[data-pending]', f));
      if (pending.length === 0) return false;
      void Promise.all(pending.map(loadShapes)).then(() => {
        const found = frames.findIndex(holds);
        if (found >= 0 && !holds(frames[current]!)) show(found, true);
      });
      return false;
    },
  };
}

/** The apartment id a home's page link names (`…/homes/{id}`), or undefined. */
const HOME_LINK = /\/homes\/([0-9a-f-]{36})$/i;

/**
 * The server writes a home's shape once: `g.status-{status} > a[href="…/homes/{id}"][aria-label] > path`
 * (the 2,000-home budget). The hooks the rest of the script and its tests use are added here, from the link
 * and its group: `a.shape-link[data-apartment-id][data-status]`.
 */
function hydrateShapes(frame: HTMLElement): void {
  for (const link of $$<SVGAElement>('svg.overlay > g > a[href]', frame)) {
    const id = HOME_LINK.exec(link.getAttribute('href') ?? '')?.[1];
    if (!id) continue;
    link.dataset.apartmentId = id.toLowerCase();
    link.dataset.status = (link.parentElement?.getAttribute('class') ?? '').replace(/^status-/, '');
    link.classList.add('shape-link');
  }
}

/** The fetches of frames' shapes under way or done (a frame's overlay is fetched once). */
const loading = new WeakMap<Element, Promise<void>>();

/**
 * Puts a frame's shapes in its empty overlay (`svg.overlay[data-pending]`, every frame but the one the
 * server showed): `?part=frame&frame={id}`, the same server render. The overlay keeps its size (it is
 * absolutely placed over the image), so nothing moves. Tells the page (`page:shapes`, bubbling) so the
 * selection and the filter reach the new shapes. A failed fetch leaves it pending: the next showing tries again.
 */
function loadShapes(frame: HTMLElement): Promise<void> {
  const overlay = $('svg.overlay[data-pending]', frame);
  if (!overlay) return Promise.resolve();
  let done = loading.get(overlay);
  if (!done) {
    const params = new URLSearchParams({ part: 'frame', frame: frame.dataset.frameId ?? '' });
    done = fetch(`${document.body.dataset.path || '/'}?${params}`, { headers: { accept: 'text/html' } })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
      .then((html) => {
        const got = new DOMParser().parseFromString(html, 'text/html').querySelector('svg.overlay');
        if (!got) throw new Error('no shapes');
        overlay.replaceChildren(...Array.from(document.importNode(got, true).childNodes));
        overlay.removeAttribute('data-pending');
        hydrateShapes(frame);
        overlay.dispatchEvent(new CustomEvent('page:shapes', { bubbles: true }));
      })
      .catch(() => {
        loading.delete(overlay);
      });
    loading.set(overlay, done);
  }
  return done;
}

/** The sidebar's Hide/Show button (absent with disableHidingSidebar): the render takes the whole width. */
function initSidebarToggle(controls: HTMLElement): void {
  const button = $<HTMLButtonElement>('.sidebar-toggle', controls);
  const sidebar = document.getElementById(button?.getAttribute('aria-controls') ?? '');
  const viewer = sidebar?.closest<HTMLElement>('.viewer');
  if (!button || !sidebar || !viewer) return;
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    button.textContent = (open ? button.dataset.hide : button.dataset.show) ?? '';
    sidebar.hidden = !open;
    viewer.classList.toggle('sidebar-closed', !open);
  });
}

/** The small label over a shape under the pointer or with focus (its name, status and price: `data-label`). */
function initLabels(root: HTMLElement): void {
  let label: HTMLElement | null = null;
  const hide = () => label?.remove();
  const showFor = (target: EventTarget | null) => {
    const link = (target as Element | null)?.closest?.<SVGAElement>('svg a[aria-label]');
    const stage = link?.closest<HTMLElement>('.frame-stage');
    if (!link || !stage || link.closest(NAVIGATOR) !== root) return hide();
    label ??= el('span', { class: 'shape-label', 'aria-hidden': 'true' });
    label.textContent = link.getAttribute('aria-label') ?? '';
    const box = link.getBoundingClientRect();
    const outer = stage.getBoundingClientRect();
    label.style.left = `${Math.round(box.left - outer.left + box.width / 2)}px`;
    label.style.top = `${Math.round(Math.max(box.top - outer.top - 4, 24))}px`;
    stage.append(label);
  };
  root.addEventListener('pointerover', (event) => showFor(event.target));
  root.addEventListener('pointerleave', hide);
  root.addEventListener('focusin', (event) => showFor(event.target));
  root.addEventListener('focusout', hide);
}
