import { $, $$, el } from './dom.js';

/**
 * The inquiry form submitted inline. The form (`form[data-inquiry-form]`, in a section with an id,
 * `#inquiry`) posts
 * `application/x-www-form-urlencoded` to `POST /p/{slug}/inquiry` with or without JavaScript, and the
 * server answers the form again with each error next to its field (422) or 303 to the thank-you state.
 * Here the same request is sent with fetch and the section of the answer with the same id (the form
 * with its errors, or the thanks) replaces the one on the page, so the visitor stays where they were;
 * focus goes to the first invalid field, else to the answer's alert or heading. Anything unexpected
 * (a network error, an answer without the section) falls back to the ordinary submission. A refusal
 * the server explains (429, 503, 413: its notice page's alert) is shown at the top of the form, which
 * keeps what the visitor typed.
 * "Ask about this home" links (`a[data-ask-apartment]`) tick that apartment in the form first.
 */
export function initForm(section: HTMLElement): void {
  let busy = false;
  const bind = (root: HTMLElement) => {
    const form = $<HTMLFormElement>('form[data-inquiry-form]', root);
    if (!form) return;
    form.addEventListener('submit', async (event) => {
      if (busy) {
        event.preventDefault();
        return;
      }
      event.preventDefault();
      busy = true;
      const submit = $<HTMLButtonElement>('[type="submit"]', form);
      if (submit) submit.disabled = true;
      form.setAttribute('aria-busy', 'true');
      try {
        const response = await fetch(form.action, {
          method: 'POST',
          body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
          headers: { Accept: 'text/html' },
          credentials: 'same-origin',
        });
        const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
        const next = root.id ? doc.getElementById(root.id) : null;
        // The 303 was followed: the inquiry is stored. Never send it again; if the thank-you page did not come
        // back whole (refused, say), go there as a plain navigation.
        if (response.redirected && (!next || !response.ok)) {
          window.location.assign(response.url);
          return;
        }
        // Refused for now (too many inquiries, an outage, too long): the server's words in place, the form kept as typed.
        const refused = !response.redirected && (response.status === 413 || response.status === 429 || response.status === 503);
        const notice = refused ? doc.getElementById('page-notice')?.textContent : undefined;
        if (notice) {
          showNotice(form, notice);
          busy = false;
          form.removeAttribute('aria-busy');
          if (submit) submit.disabled = false;
          return;
        }
        if (!next || (response.status !== 422 && !response.ok)) throw new Error(`inquiry answered ${response.status}`);
        const fresh = document.importNode(next, true) as HTMLElement;
        root.replaceWith(fresh);
        bind(fresh);
        const target = $('[aria-invalid="true"]', fresh) ?? $('[role="alert"]', fresh) ?? $('h2, h3', fresh) ?? fresh;
        if (!target.matches('input, select, textarea, button, a[href]')) target.tabIndex = -1;
        target.focus();
        target.scrollIntoView({ block: 'center' });
      } catch {
        busy = false;
        form.removeAttribute('aria-busy');
        if (submit) submit.disabled = false;
        HTMLFormElement.prototype.submit.call(form);
        return;
      }
      busy = false;
    });
  };
  bind(section);

  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLElement>('a[data-ask-apartment]');
    const id = link?.dataset.askApartment;
    if (!id) return;
    const form = $<HTMLFormElement>('form[data-inquiry-form]');
    for (const input of $$<HTMLInputElement>('input[name="apartmentIds"]', form ?? document)) {
      if (input.value === id) input.checked = true;
    }
    for (const option of $$<HTMLOptionElement>('select[name="apartmentIds"] option', form ?? document)) {
      if (option.value === id) option.selected = true;
    }
  });
}

/** The alert at the top of the form (the one the server renders for a form-wide error), with `text`, focused. */
function showNotice(form: HTMLFormElement, text: string): void {
  let alert = $<HTMLElement>('#inquiry-form-error', form);
  if (!alert) {
    alert = el('p', { class: 'error', id: 'inquiry-form-error', role: 'alert' });
    form.prepend(alert);
  }
  alert.textContent = text;
  alert.tabIndex = -1;
  alert.focus();
  alert.scrollIntoView({ block: 'center' });
}
