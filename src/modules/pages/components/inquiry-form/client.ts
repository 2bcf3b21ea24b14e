import { $, el } from '../../client/dom.js';
import type { Words } from '../../client/words.js';

/** The hidden field the server uses as the inquiry's idempotency key (src/modules/pages/routes/form.ts, INQUIRY_KEY_FIELD). */
const KEY_FIELD = 'inquiryKey';
/** Statuses the server explains with a notice page whose alert is shown in place (413, 429, 503; 409: the same key still being stored). */
const REFUSED = new Set([409, 413, 429, 503]);

/** 128 random bits as hex (crypto.getRandomValues also works on a page served over plain HTTP, randomUUID does not). */
function oneTimeKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The inquiry form submitted inline. The form (`form[data-inquiry-form]`, in a section with an id,
 * `#inquiry`) posts
 * `application/x-www-form-urlencoded` to `POST /p/{slug}/inquiry` with or without JavaScript, and the
 * server answers the form again with each error next to its field (422) or 303 to the thank-you state.
 * Here the same request is sent with fetch and the section of the answer with the same id (the form
 * with its errors, or the thanks) replaces the one on the page, so the visitor stays where they were;
 * focus goes to the first invalid field, else to the answer's alert or heading. A refusal the server
 * explains (409, 413, 429, 503: its notice page's alert) is shown at the top of the form, which keeps
 * what the visitor typed.
 * The post carries a one-time key (a hidden field), the same for as long as the form says the same: the
 * server stores one inquiry per key, so sending again after a lost answer cannot store it twice. Once
 * fetch has sent, the form is never submitted natively: anything unexpected after that (a network
 * failure, an answer without the section) is said at the top of the form, and Send sends it again with
 * the same key. Only an error before fetch is called falls back to the ordinary submission.
 */
export function initForm(section: HTMLElement, words: Words): void {
  let busy = false;
  let sent: { content: string; key: string } | undefined;
  const bind = (root: HTMLElement) => {
    const form = $<HTMLFormElement>('form[data-inquiry-form]', root);
    if (!form) return;
    const keyField = $<HTMLInputElement>(`input[name="${KEY_FIELD}"]`, form) ?? form.appendChild(el('input', { type: 'hidden', name: KEY_FIELD, value: '' }));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (busy) return;
      busy = true;
      const submit = $<HTMLButtonElement>('[type="submit"]', form);
      const idle = () => {
        busy = false;
        form.removeAttribute('aria-busy');
        if (submit) submit.disabled = false;
      };
      if (submit) submit.disabled = true;
      form.setAttribute('aria-busy', 'true');
      let fetched = false;
      try {
        keyField.value = '';
        const content = new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
        if (sent?.content !== content) sent = { content, key: oneTimeKey() };
        keyField.value = sent.key;
        const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
        fetched = true;
        const response = await fetch(form.action, { method: 'POST', body, headers: { Accept: 'text/html' }, credentials: 'same-origin' });
        const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
        const next = root.id ? doc.getElementById(root.id) : null;
        // The 303 was followed: the inquiry is stored. Never send it again; if the thank-you page did not come
        // back whole (refused, say), go there as a plain navigation.
        if (response.redirected && (!next || !response.ok)) {
          window.location.assign(response.url);
          return;
        }
        // Refused for now (too many inquiries, an outage, too long, already being sent): the server's words in place, the form kept as typed.
        const notice = !response.redirected && REFUSED.has(response.status) ? doc.getElementById('page-notice')?.textContent : undefined;
        if (notice) {
          showNotice(form, notice);
          idle();
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
        busy = false;
      } catch {
        idle();
        // Sent (or perhaps sent): never again natively; Send tries again with the same key.
        if (fetched) showNotice(form, words('unconfirmed'));
        else HTMLFormElement.prototype.submit.call(form);
      }
    });
  };
  bind(section);
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
