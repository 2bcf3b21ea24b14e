import { $, $$, el } from './dom.js';

/**
 * Rotation of a navigator between its frames (server markup: `[data-navigator][data-starting-angle]`
 * holding `[data-frames]` of `[data-frame][data-angle]`, each frame an image with its SVG overlay of
 * shapes `[data-apartment-id]`). Without JavaScript every frame is shown in order; here one frame is
 * shown at a time, starting at the one nearest `startingAngle`, turned by the Previous/Next buttons
 * (rendered by the server as `[data-rotate="-1"|"1"]`, made here when absent), a horizontal drag, or
 * the arrow keys while the view has focus. A live region says which view is shown.
 */
export interface Navigator {
  root: HTMLElement;
  /** Shows the frame that holds the shape of this apartment, if any; true when one does. */
  reveal(apartmentId: string): boolean;
}

const DRAG_STEP_PX = 40;

export function initNavigator(root: HTMLElement): Navigator | null {
  const stage = $('[data-frames]', root);
  const frames = $$('[data-frame]', root).sort((a, b) => Number(a.dataset.angle) - Number(b.dataset.angle));
  if (!stage || frames.length === 0) return null;
  const start = Number(root.dataset.startingAngle ?? 0);
  const distance = (angle: number) => {
    const d = Math.abs((((angle - start) % 360) + 360) % 360);
    return Math.min(d, 360 - d);
  };
  let current = 0;
  frames.forEach((frame, i) => {
    if (distance(Number(frame.dataset.angle)) < distance(Number(frames[current]?.dataset.angle))) current = i;
  });

  root.classList.add('is-rotatable');
  const status = $('[data-rotate-status]', root) ?? stage.appendChild(el('p', { class: 'visually-hidden', 'aria-live': 'polite' }));
  const show = (index: number, announce: boolean) => {
    current = (index + frames.length) % frames.length;
    frames.forEach((frame, i) => {
      frame.hidden = i !== current;
    });
    const frame = frames[current]!;
    if (announce) status.textContent = `View ${current + 1} of ${frames.length}${frame.dataset.label ? `: ${frame.dataset.label}` : ''}`;
  };
  const turn = (step: number) => show(current + step, true);

  if (frames.length > 1) {
    let buttons = $$<HTMLButtonElement>('[data-rotate]', root);
    if (buttons.length === 0) {
      const bar = el('div', { class: 'navigator-rotate' });
      buttons = [
        el('button', { type: 'button', 'data-rotate': '-1', 'aria-label': 'Previous view' }, '‹'),
        el('button', { type: 'button', 'data-rotate': '1', 'aria-label': 'Next view' }, '›'),
      ];
      bar.append(...buttons);
      stage.append(bar);
    }
    for (const button of buttons) {
      button.hidden = false;
      button.addEventListener('click', () => turn(Number(button.dataset.rotate) || 1));
    }

    // The stage takes focus (one tab stop) and turns with the arrow keys; shapes inside stay links.
    if (!stage.hasAttribute('tabindex')) stage.tabIndex = 0;
    if (!stage.hasAttribute('role')) stage.setAttribute('role', 'group');
    if (!stage.hasAttribute('aria-label')) stage.setAttribute('aria-label', 'Project view; the left and right arrow keys rotate it');
    stage.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
      if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      turn(step);
    });

    let originX: number | null = null;
    let moved = false;
    stage.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || (event.target as Element).closest('button')) return;
      originX = event.clientX;
      moved = false;
    });
    stage.addEventListener('pointermove', (event) => {
      if (originX === null) return;
      const dx = event.clientX - originX;
      if (Math.abs(dx) < DRAG_STEP_PX) return;
      if (!moved) stage.setPointerCapture(event.pointerId);
      moved = true;
      originX = event.clientX;
      turn(dx < 0 ? 1 : -1);
    });
    const end = () => {
      originX = null;
    };
    stage.addEventListener('pointerup', end);
    stage.addEventListener('pointercancel', end);
    // A drag that turned the view is not also a click on the shape it ended on.
    stage.addEventListener(
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
    stage.addEventListener('dragstart', (event) => event.preventDefault());
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
