import { $, $$, el, modified } from './dom.js';

/**
 * Rotation of a navigator between its frames (server markup: `section.navigator[data-starting-angle]`
 * holding `figure[data-angle]` frames, each an image and its SVG overlay of shapes
 * `a[data-apartment-id]`, and `a[href="#frame-<id>"]` view links). One frame is shown at a time,
 * starting at the one nearest `startingAngle`, turned by Previous/Next buttons (`[data-rotate]`, made
 * over the image when the server renders none), the view links, a horizontal drag, or the arrow keys
 * while focus is in the frame. A live region says which view is shown.
 */
export interface Navigator {
  root: HTMLElement;
  /** Shows the frame that holds the shape of this apartment, if any; true when one does. */
  reveal(apartmentId: string): boolean;
}

/** A navigator section (nested ones are sections inside their parent's). */
export const NAVIGATOR = '[data-navigator], section.navigator[data-navigator-id]';
const DRAG_STEP_PX = 40;

export function initNavigator(root: HTMLElement): Navigator | null {
  const holder = $('[data-frames]', root) ?? root;
  // Own frames only: a nested navigator's frames belong to its own section.
  const frames = (Array.from(holder.children) as HTMLElement[])
    .filter((node) => node.matches('[data-frame], figure[data-angle]'))
    .sort((a, b) => Number(a.dataset.angle) - Number(b.dataset.angle));
  if (frames.length === 0) return null;
  const start = Number(root.dataset.startingAngle ?? 0);
  const distance = (angle: number) => {
    const d = Math.abs((((angle - start) % 360) + 360) % 360);
    return Math.min(d, 360 - d);
  };
  let current = 0;
  frames.forEach((frame, i) => {
    if (distance(Number(frame.dataset.angle)) < distance(Number(frames[current]?.dataset.angle))) current = i;
  });
  const stageOf = (frame: HTMLElement) => $('.frame-stage', frame) ?? frame;
  const mine = (event: Event) => (event.target as Element).closest(NAVIGATOR) === root;

  root.classList.add('is-rotatable');
  const status = root.appendChild(el('p', { class: 'visually-hidden', 'aria-live': 'polite' }));
  const angleLinks = $$<HTMLAnchorElement>('a[href^="#frame-"]', root).filter((a) => a.closest(NAVIGATOR) === root);
  let bar: HTMLElement | null = null;
  const show = (index: number, announce: boolean) => {
    current = (index + frames.length) % frames.length;
    const frame = frames[current]!;
    frames.forEach((f, i) => {
      f.hidden = i !== current;
    });
    if (bar) stageOf(frame).append(bar);
    for (const link of angleLinks) {
      if (link.hash === `#${frame.id}`) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
    if (announce) {
      const name = frame.dataset.label ?? $('figcaption', frame)?.textContent?.trim();
      status.textContent = `View ${current + 1} of ${frames.length}${name ? `: ${name}` : ''}`;
    }
  };
  const turn = (step: number) => show(current + step, true);

  if (frames.length > 1) {
    let buttons = $$<HTMLButtonElement>('[data-rotate]', root).filter((b) => b.closest(NAVIGATOR) === root);
    if (buttons.length === 0) {
      // Over the image (absolutely placed in the stage): nothing on the page moves when they appear.
      bar = el('div', { class: 'navigator-rotate' });
      buttons = [
        el('button', { type: 'button', 'data-rotate': '-1', 'aria-label': 'Previous view' }, '‹'),
        el('button', { type: 'button', 'data-rotate': '1', 'aria-label': 'Next view' }, '›'),
      ];
      bar.append(...buttons);
    }
    for (const button of buttons) {
      button.hidden = false;
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
      if (!stage.hasAttribute('tabindex')) stage.tabIndex = 0;
      if (!stage.hasAttribute('role')) stage.setAttribute('role', 'group');
      if (!stage.hasAttribute('aria-label')) stage.setAttribute('aria-label', 'Project view: the left and right arrow keys rotate it');
    }
    root.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
      if (!step || event.altKey || event.ctrlKey || event.metaKey || !mine(event)) return;
      if (!(event.target as Element).closest('[data-frame], figure[data-angle]')) return;
      event.preventDefault();
      const focusedStage = document.activeElement === stageOf(frames[current]!);
      turn(step);
      if (focusedStage) stageOf(frames[current]!).focus();
    });

    let originX: number | null = null;
    let moved = false;
    root.addEventListener('pointerdown', (event) => {
      if (
        event.button !== 0 ||
        !mine(event) ||
        (event.target as Element).closest('button') ||
        !(event.target as Element).closest('[data-frame], figure[data-angle]')
      )
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
      turn(dx < 0 ? 1 : -1);
    });
    const end = () => {
      originX = null;
    };
    root.addEventListener('pointerup', end);
    root.addEventListener('pointercancel', end);
    // A drag that turned the view is not also a click on the shape it ended on.
    root.addEventListener(
      'click',
      (event) => {
        if (moved) {
          event.preventDefault();
          event.stopPropagation();
          moved = false;
        }
      },
      true,
    );
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
      if (index < 0) return false;
      show(index, true);
      return true;
    },
  };
}
