// The company's webhook subscriptions: state, disable time and reason, health; register, delete, replace,
// recover, rotate the signing secret.
import { api, ApiError } from '../api.js';
import { badge, dialog, formDialog, h, isoOf, localOf, notice, table, time, timeText } from '../dom.js';
import { seg } from '../ids.js';

/** Every subscription of the company (the list is paged: all pages are read). */
async function allSubscriptions() {
  const items = [];
  for (let page = 1; ; page++) {
    const res = await api('GET', `/webhooks?page=${page}&pageSize=100`);
    items.push(...res.items);
    if (page >= res.totalPages) return items;
  }
}

const HEALTH = { healthy: 'Healthy', failing: 'Failing', disabled: 'Disabled' };

/** Its deliveries' health (docs/decisions/0229): the streak of Exhausted ones and the last e-mail notice. */
function healthCell(health) {
  if (!health) return h('span', { class: 'muted' }, '—');
  return h(
    'div',
    { class: 'health' },
    badge(HEALTH[health.status] ?? health.status),
    health.consecutiveExhausted
      ? h('div', { class: 'muted' }, `${health.consecutiveExhausted} exhausted in a row`)
      : null,
    health.since && health.status === 'failing' ? h('div', { class: 'muted' }, 'Since ', time(health.since)) : null,
    health.lastNoticeAt ? h('div', { class: 'muted' }, 'Owners notified ', time(health.lastNoticeAt)) : null,
  );
}

/** The new subscription's signing secret, shown this once. */
function showSecret(created, graceUntil) {
  return dialog('Signing secret', (close) =>
    h(
      'div',
      {},
      h(
        'p',
        {},
        'This is the only time the secret of the subscription to ',
        h('code', {}, created.url),
        ' is shown. Store it in your receiver now; it verifies the signature of every delivery.',
      ),
      graceUntil
        ? h(
            'p',
            {},
            'Until ',
            time(graceUntil),
            ' every delivery is signed with the new and the previous secret, so a receiver that knows either accepts it; after that only with this one.',
          )
        : null,
      h('label', { for: 'secret' }, 'Signing secret'),
      h('input', { id: 'secret', class: 'secret', readonly: true, value: created.signingSecret }),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'button',
            onclick: async () => {
              await navigator.clipboard?.writeText(created.signingSecret).catch(() => undefined);
            },
          },
          'Copy',
        ),
        h('button', { type: 'button', class: 'button primary', onclick: () => close() }, 'I have stored it'),
      ),
    ),
  );
}

function confirmDialog(title, text, action) {
  return dialog(title, (close) =>
    h(
      'div',
      {},
      h('p', {}, text),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'button', onclick: () => close(false) }, 'Cancel'),
        h('button', { type: 'button', class: 'button danger', onclick: () => close(true) }, action),
      ),
    ),
  );
}

/** Recover: every event the URL missed since a time, queued as new deliveries. */
function recoverDialog(sub) {
  const since = sub.DisabledAt ?? new Date(Date.now() - 24 * 3600_000).toISOString();
  return formDialog('Recover missed events', {
    intro:
      'Events of this subscription’s types that its URL did not receive since this time (at most 30 days back) are sent again.',
    fields: [
      h('label', { for: 'since' }, 'Since'),
      h('input', {
        id: 'since',
        name: 'since',
        type: 'datetime-local',
        step: 1,
        required: true,
        value: localOf(since),
      }),
    ],
    submitText: 'Recover',
    submit: (form) => api('POST', `/webhooks/${seg(sub.id)}/recover`, { since: isoOf(form.since.value) }),
  });
}

/** The grace choices of a rotation: how long the previous secret keeps signing (0149). */
const GRACE_CHOICES = [
  ['0', 'None: cut over now'],
  ['3600', '1 hour'],
  ['86400', '24 hours'],
  ['604800', '7 days'],
];

/** Rotate: a new signing secret; the previous one keeps signing for the grace chosen. */
function rotateDialog(sub) {
  return formDialog('Rotate the signing secret', {
    intro:
      'A new signing secret replaces the current one. During the grace every delivery carries both signatures, so you can roll the new secret out to your receivers without missing one.',
    fields: [
      h('label', { for: 'grace' }, 'Grace for the previous secret'),
      h(
        'select',
        { id: 'grace', name: 'grace' },
        GRACE_CHOICES.map(([value, text]) => h('option', { value, selected: value === '86400' }, text)),
      ),
    ],
    submitText: 'Rotate',
    submit: (form) =>
      api('POST', `/webhooks/${seg(sub.id)}/rotate-secret`, { gracePeriodSeconds: Number(form.grace.value) }),
  });
}

function registerForm(config, onCreated) {
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      class: 'register',
      onsubmit: async (e) => {
        e.preventDefault();
        const eventTypes = [...form.querySelectorAll('input[name=eventType]:checked')].map((i) => i.value);
        try {
          const created = await api('POST', '/webhooks', { url: form.url.value.trim(), eventTypes });
          await showSecret(created);
          onCreated();
        } catch (err) {
          const fields =
            err instanceof ApiError && err.body?.errors ? Object.values(err.body.errors).flat().join('; ') : '';
          status.replaceChildren(notice(fields ? `${err.message} ${fields}` : err.message, 'error'));
        }
      },
    },
    h('label', { for: 'url' }, 'HTTPS URL of your receiver'),
    h('input', {
      id: 'url',
      name: 'url',
      type: 'url',
      required: true,
      placeholder: 'https://hooks.example.com/travel',
    }),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Event types'),
      config.eventTypes.map((t) =>
        h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'eventType', value: t }), ' ', t),
      ),
    ),
    status,
    h('button', { type: 'submit', class: 'button primary' }, 'Register'),
  );
  return h('details', { class: 'card' }, h('summary', {}, 'Register a subscription'), form);
}

export async function subscriptionsView(config, say) {
  const subs = await allSubscriptions();
  const reload = () => window.dispatchEvent(new HashChangeEvent('hashchange'));

  const replace = async (sub) => {
    const ok = await confirmDialog(
      'Delete and register again',
      `The subscription to ${sub.url} is deleted (its delivery log stays readable for 30 days) and the same URL is registered again for the same event types, signature scheme and filter, with a new signing secret.`,
      'Delete and register',
    );
    if (!ok) return;
    await api('DELETE', `/webhooks/${seg(sub.id)}`);
    // What a read shows registers again as it is: the scheme and the payload filter are kept (0230).
    const created = await api('POST', '/webhooks', {
      url: sub.url,
      eventTypes: sub.eventTypes,
      signatureScheme: sub.signatureScheme,
      filter: sub.filter ?? null,
    });
    await showSecret(created);
    say(`Registered again as ${created.id}. Use “Recover” on it to send what the URL missed.`, 'info', true);
    reload();
  };
  const remove = async (sub) => {
    if (!(await confirmDialog('Delete subscription', `No more deliveries go to ${sub.url}.`, 'Delete'))) return;
    await api('DELETE', `/webhooks/${seg(sub.id)}`);
    say('Subscription deleted.', 'info', true);
    reload();
  };
  const recover = async (sub) => {
    const res = await recoverDialog(sub);
    if (res)
      say(
        res.count === 0
          ? `Nothing was missed since ${timeText(res.since)}.`
          : `${res.count} missed ${res.count === 1 ? 'event' : 'events'} queued since ${timeText(res.since)}.`,
      );
  };
  const rotate = async (sub) => {
    const rotated = await rotateDialog(sub);
    if (!rotated) return;
    await showSecret(rotated, rotated.previousSecretExpiresAt);
    say('The signing secret was rotated.', 'info', true);
    reload();
  };
  const guarded = (fn, sub) => async () => {
    try {
      await fn(sub);
    } catch (err) {
      say(err.message, 'error');
    }
  };

  const rows = subs.map((s) =>
    h(
      'tr',
      { 'data-subscription': s.id },
      h('td', {}, h('a', { href: `#/subscriptions/${seg(s.id)}` }, s.url)),
      h(
        'td',
        {},
        h(
          'ul',
          { class: 'tags' },
          s.eventTypes.map((t) => h('li', {}, t)),
        ),
        // The payload filter, read-only (docs/decisions/0230): only events it takes are delivered.
        s.filter ? h('div', { class: 'muted filter' }, 'Filter: ', h('code', {}, JSON.stringify(s.filter))) : null,
      ),
      h(
        'td',
        {},
        badge(s.IsActive ? 'Active' : 'Disabled'),
        s.previousSecretExpiresAt
          ? h('div', { class: 'muted grace' }, 'Previous secret signs until ', time(s.previousSecretExpiresAt))
          : null,
      ),
      h('td', {}, time(s.DisabledAt)),
      h('td', { class: 'reason' }, s.DisabledReason ?? h('span', { class: 'muted' }, '—')),
      h('td', {}, healthCell(s.health)),
      h('td', {}, time(s.createdAt)),
      h(
        'td',
        {},
        h(
          'div',
          { class: 'row-actions' },
          h('a', { class: 'button small', href: `#/subscriptions/${seg(s.id)}` }, 'Deliveries'),
          s.IsActive
            ? h('button', { type: 'button', class: 'button small', onclick: guarded(recover, s) }, 'Recover…')
            : null,
          s.IsActive
            ? h('button', { type: 'button', class: 'button small', onclick: guarded(rotate, s) }, 'Rotate secret…')
            : null,
          h('button', { type: 'button', class: 'button small', onclick: guarded(replace, s) }, 'Replace…'),
          h('button', { type: 'button', class: 'button small danger', onclick: guarded(remove, s) }, 'Delete…'),
        ),
      ),
    ),
  );
  return h(
    'section',
    { 'aria-labelledby': 'subs-title' },
    h('h1', { id: 'subs-title' }, 'Webhook subscriptions'),
    subs.length
      ? table(['URL', 'Event types', 'State', 'Disabled at', 'Reason', 'Health', 'Created', 'Actions'], rows)
      : h('p', { class: 'empty card' }, 'No subscriptions yet. Register one below.'),
    registerForm(config, reload),
  );
}
