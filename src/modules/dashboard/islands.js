// The dashboard's islands (served as /p/_assets/dashboard-islands.<hash>.js, script-src 'self').
// Both only enhance forms that work without JavaScript: the upload form posts and answers 303, the
// ordering lists keep their Move up / Move down buttons.
(() => {
  /** Upload: each chosen file sent on its own, its progress in a named <progress>, outcomes in a live region. */
  for (const form of document.querySelectorAll('form[data-upload-island]')) {
    const input = form.querySelector('input[type="file"]');
    const box = form.querySelector('[data-upload-progress]');
    const list = form.querySelector('[data-upload-list]');
    const status = form.querySelector('[data-upload-status]');
    const button = form.querySelector('button[type="submit"]');
    const csrf = form.querySelector('input[name="_csrf"]').value;
    form.addEventListener('submit', (event) => {
      const files = Array.from(input.files || []);
      // Nothing chosen: the server's answer names the problem next to the field.
      if (files.length === 0) return;
      event.preventDefault();
      box.hidden = false;
      list.replaceChildren();
      button.disabled = true;
      status.textContent = `Uploading ${files.length} ${files.length === 1 ? 'file' : 'files'}.`;
      let failures = 0;
      const finish = () => {
        button.disabled = false;
        input.value = '';
        const done = files.length - failures;
        status.textContent =
          failures === 0
            ? `${done === 1 ? 'The file is' : `All ${done} files are`} uploaded.`
            : `${done} of ${files.length} files uploaded; ${failures} not uploaded (the reason is next to each).`;
        const more = document.createElement('p');
        const link = document.createElement('a');
        link.href = `${location.pathname}?done=uploaded`;
        link.textContent = 'Show the uploaded files';
        more.append(link);
        list.after(more);
      };
      const send = (i) => {
        if (i >= files.length) return finish();
        const file = files[i];
        const item = document.createElement('li');
        const id = `upload-progress-${i}`;
        const label = document.createElement('label');
        label.htmlFor = id;
        label.textContent = file.name;
        const progress = document.createElement('progress');
        progress.id = id;
        progress.max = Math.max(file.size, 1);
        progress.value = 0;
        const note = document.createElement('span');
        note.className = 'upload-note';
        note.textContent = 'Waiting';
        item.append(label, ' ', progress, ' ', note);
        list.append(item);

        const body = new FormData();
        body.append('_csrf', csrf);
        body.append('files', file, file.name);
        const xhr = new XMLHttpRequest();
        xhr.open('POST', form.action);
        xhr.setRequestHeader('x-requested-with', 'upload-island');
        xhr.setRequestHeader('x-csrf-token', csrf);
        xhr.responseType = 'json';
        xhr.upload.addEventListener('progress', (e) => {
          if (!e.lengthComputable) return;
          progress.max = e.total;
          progress.value = e.loaded;
          note.textContent = `${Math.round((e.loaded / e.total) * 100)}%`;
        });
        xhr.addEventListener('load', () => {
          const failed = xhr.response && Array.isArray(xhr.response.failed) ? xhr.response.failed : [];
          if (xhr.status === 201) {
            progress.value = progress.max;
            note.textContent = 'Uploaded';
            status.textContent = `${file.name} uploaded (${i + 1} of ${files.length}).`;
          } else {
            failures++;
            const reason = failed[0] ? failed[0].message : xhr.status === 403 ? 'This form has expired. Reload the page.' : 'The server refused it.';
            note.textContent = `Not uploaded: ${reason}`;
            item.className = 'error-message';
            status.textContent = `${file.name} not uploaded: ${reason}`;
          }
          send(i + 1);
        });
        xhr.addEventListener('error', () => {
          failures++;
          note.textContent = 'Not uploaded: the connection failed.';
          item.className = 'error-message';
          send(i + 1);
        });
        xhr.send(body);
      };
      send(0);
    });
  }

  /** Ordering by drag: a list's items can be dropped on another item; the Move buttons remain for the keyboard. */
  for (const list of document.querySelectorAll('[data-order-list]')) {
    const csrf = list.getAttribute('data-csrf');
    const action = list.getAttribute('data-order-action');
    const set = list.getAttribute('data-order-set');
    let dragged = null;
    const items = () => Array.from(list.children).filter((li) => li.hasAttribute('data-order-id'));
    for (const item of items()) {
      item.draggable = true;
      item.classList.add('draggable');
      // Lists nest (a gallery section's items inside the sections' list): each drag event is this list's only,
      // so dragging an item never also drags the section around it.
      item.addEventListener('dragstart', (e) => {
        e.stopPropagation();
        dragged = item;
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', item.getAttribute('data-order-id'));
      });
      item.addEventListener('dragend', () => {
        dragged = null;
      });
      item.addEventListener('dragover', (e) => {
        if (!dragged) return;
        e.stopPropagation();
        if (dragged !== item) e.preventDefault();
      });
      item.addEventListener('drop', (e) => {
        if (!dragged) return;
        e.preventDefault();
        e.stopPropagation();
        if (dragged === item) return;
        const to = items().indexOf(item);
        const body = new URLSearchParams({ _csrf: csrf, set, id: dragged.getAttribute('data-order-id'), to: String(to) });
        // Said to be the island, the route answers 204 instead of a 303 to the editor (a page rendered for nothing
        // and cut off by the reload); the reload shows the order as stored, or as it was when the move was refused.
        const reload = () => location.reload();
        const headers = { 'x-csrf-token': csrf, 'x-requested-with': 'order-island' };
        fetch(action, { method: 'POST', body, headers, credentials: 'same-origin' }).then(reload, reload);
      });
    }
  }
})();
