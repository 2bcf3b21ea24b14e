import type { Reference } from '../svg-match.js';
import { el } from './dom.js';

/**
 * "Apartment or building": an editable combobox with a list popup (ARIA 1.2 combobox pattern,
 * aria-autocomplete="list"). Typing filters by name or externalId; Down/Up move the active option
 * (aria-activedescendant, focus stays in the input); Enter or a click picks it; Escape closes the list,
 * or clears the text when the list is closed.
 */
export interface Combobox {
  element: HTMLElement;
  input: HTMLInputElement;
  /** Enables it for a shape (showing its reference) or disables it (no shape selected). */
  setTarget(current: Reference | undefined, enabled: boolean): void;
}

/** Options shown at most: typing narrows a long list. */
const MAX_OPTIONS = 50;

export function createCombobox(
  id: string,
  references: () => readonly Reference[],
  hasShape: (r: Reference) => boolean,
  onPick: (r: Reference) => void,
): Combobox {
  const label = el('label', { for: `${id}-input` }, 'Apartment or building');
  const input = el('input', {
    id: `${id}-input`,
    type: 'text',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': `${id}-list`,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const list = el('ul', { id: `${id}-list`, role: 'listbox', 'aria-label': 'Apartments and buildings', class: 'se-listbox' });
  list.hidden = true;
  const element = el('div', { class: 'se-combobox' });
  element.append(label, input, list);

  let shown: Reference[] = [];
  let active = -1;

  const optionId = (i: number) => `${id}-option-${i}`;
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (i: number) => {
    active = i;
    list.querySelectorAll('[role="option"]').forEach((o, j) => o.setAttribute('aria-selected', String(j === i)));
    if (i >= 0) {
      input.setAttribute('aria-activedescendant', optionId(i));
      list.children[i]?.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const open = () => {
    const q = input.value.trim().toLowerCase();
    shown = references()
      .filter((r) => !q || r.name.toLowerCase().includes(q) || (r.externalId ?? '').toLowerCase().includes(q))
      .slice(0, MAX_OPTIONS);
    list.replaceChildren(
      ...shown.map((r, i) => {
        const kind = r.referenceType === 'building' ? 'building' : 'apartment';
        const extra = r.externalId ? `, ${r.externalId}` : '';
        const option = el('li', { id: optionId(i), role: 'option', 'aria-selected': 'false', class: 'se-option' });
        option.textContent = `${r.name} (${kind}${extra})${hasShape(r) ? ' · has a shape' : ''}`;
        // pointerdown, not click: the input keeps focus (a click would blur it first).
        option.addEventListener('pointerdown', (event) => {
          event.preventDefault();
          pick(i);
        });
        return option;
      }),
    );
    if (shown.length === 0) list.append(el('li', { role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false', class: 'se-option' }, 'No match'));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    highlight(shown.length > 0 ? 0 : -1);
  };
  const pick = (i: number) => {
    const r = shown[i];
    if (!r) return;
    input.value = r.name;
    close();
    onPick(r);
  };

  input.addEventListener('input', open);
  input.addEventListener('blur', close);
  input.addEventListener('keydown', (event) => {
    const expanded = !list.hidden;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!expanded) open();
      else if (shown.length > 0) highlight((active + 1) % shown.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (!expanded) open();
      else if (shown.length > 0) highlight((active - 1 + shown.length) % shown.length);
    } else if (event.key === 'Enter') {
      if (expanded && active >= 0) {
        event.preventDefault();
        pick(active);
      }
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (expanded) close();
      else input.value = '';
    }
  });

  return {
    element,
    input,
    setTarget(current, enabled) {
      input.disabled = !enabled;
      if (document.activeElement !== input) input.value = current?.name ?? '';
      close();
    },
  };
}
