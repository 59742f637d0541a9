// A few DOM helpers: every text goes in as text (payloads and partners' answers are never parsed as HTML).

/** An element with attributes (`on…` handlers, `class`, booleans) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An instant as `YYYY-MM-DD hh:mm:ss` in the reader's zone. */
export function timeText(iso) {
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A time in the reader's zone, to the second; the exact instant in the tooltip. */
export function time(iso) {
  if (!iso) return h('span', { class: 'muted' }, '—');
  // The line may break between the date and the clock, never inside either.
  const [day, clock] = timeText(iso).split(' ');
  return h(
    'time',
    { datetime: iso, title: iso },
    h('span', { class: 'nowrap' }, day),
    ' ',
    h('span', { class: 'nowrap' }, clock),
  );
}

const BADGE = {
  Succeeded: 'ok',
  succeeded: 'ok',
  Active: 'ok',
  Pending: 'info',
  retry: 'warn',
  Failed: 'bad',
  failed: 'bad',
  Exhausted: 'bad',
  exhausted: 'bad',
  Disabled: 'bad',
  Healthy: 'ok',
  Failing: 'warn',
};

export const badge = (text) => h('span', { class: `badge ${BADGE[text] ?? 'plain'}` }, text);

/** A message above the view: `role=status` for news, `role=alert` for errors. */
export function notice(text, kind = 'info') {
  return h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** A modal dialog; resolves when it closes. `build(close)` gives its content. */
export function dialog(title, build) {
  return new Promise((resolve) => {
    const close = (value) => {
      el.close();
      el.remove();
      resolve(value);
    };
    const el = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'dialog-title' },
      h('h2', { id: 'dialog-title' }, title),
      build(close),
    );
    el.addEventListener('cancel', () => resolve(undefined));
    document.body.append(el);
    el.showModal();
  });
}

/** A datetime-local input's value as an ISO instant (the browser's zone), or undefined when empty. */
export const isoOf = (local) => (local ? new Date(local).toISOString() : undefined);

/** An ISO instant as a datetime-local value in the browser's zone. */
export function localOf(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
}

/** A table with column headings, scrolling sideways inside its card on narrow screens. */
export function table(headings, rows, attrs = {}) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      attrs,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headings.map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/**
 * A dialog with a form: `intro` text, the form's `fields`, Cancel and a submit button. `submit(form)` gives
 * what the dialog resolves to; its error is shown in the dialog, which stays open.
 */
export function formDialog(title, { intro, fields, submitText, submit }) {
  return dialog(title, (close) => {
    const status = h('div', { 'aria-live': 'polite' });
    const form = h(
      'form',
      {
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            close(await submit(form));
          } catch (err) {
            status.replaceChildren(notice(err.message, 'error'));
          }
        },
      },
      h('p', {}, intro),
      fields,
      status,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'button', onclick: () => close() }, 'Cancel'),
        h('button', { type: 'submit', class: 'button primary' }, submitText),
      ),
    );
    return form;
  });
}
