// One delivery: the exact signed bytes, every attempt (status, latency, outcome) and the partner's answer;
// retry when Failed or Exhausted. While it is Pending the view reads it again every second or two.
import { api } from '../api.js';
import { badge, h, table, time } from '../dom.js';
import { seg } from '../ids.js';

const RETRYABLE = new Set(['Failed', 'Exhausted']);

const byteLength = (text) => new TextEncoder().encode(text).length;

function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The payload as sent (byte for byte), with a formatted reading beside it. */
function payloadBlock(payload) {
  const exact = h('pre', { class: 'code', tabindex: 0, 'aria-label': 'Signed bytes, exactly as sent' }, payload);
  const formatted = h(
    'pre',
    { class: 'code', tabindex: 0, 'aria-label': 'Payload, formatted', hidden: true },
    pretty(payload),
  );
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'button small',
      'aria-pressed': 'false',
      onclick: () => {
        const on = formatted.hidden;
        formatted.hidden = !on;
        exact.hidden = on;
        toggle.setAttribute('aria-pressed', String(on));
        toggle.textContent = on ? 'Show exact bytes' : 'Show formatted';
      },
    },
    'Show formatted',
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'bytes-title' },
    h(
      'div',
      { class: 'card-head' },
      h('h2', { id: 'bytes-title' }, `Signed bytes (${byteLength(payload)} bytes)`),
      toggle,
    ),
    exact,
    formatted,
  );
}

function attemptsTable(d) {
  if (!d.attemptLog.length) return h('p', { class: 'empty' }, 'No attempt has ended yet.');
  return table(
    ['Series', 'Attempt', 'At', 'Outcome', 'HTTP status', 'Latency', 'Error'],
    d.attemptLog.map((a) =>
      h(
        'tr',
        {},
        h('td', { class: 'num' }, a.series),
        h('td', { class: 'num' }, a.attempt),
        h('td', {}, time(a.at)),
        h('td', {}, badge(a.outcome)),
        h('td', { class: 'num' }, a.statusCode ?? h('span', { class: 'muted' }, 'no answer')),
        h('td', { class: 'num' }, `${a.durationMs} ms`),
        h('td', {}, a.error ?? h('span', { class: 'muted' }, '—')),
      ),
    ),
    { id: 'attempts' },
  );
}

export async function deliveryView(subId, deliveryId, say, keepFresh) {
  // Each call names its path literally: the gateway's list of what the cookie reaches is checked against it.
  const d = await api('GET', `/webhooks/${seg(subId)}/deliveries/${seg(deliveryId)}`);
  const retry = async () => {
    try {
      await api('POST', `/webhooks/${seg(subId)}/deliveries/${seg(deliveryId)}/retry`);
      say('Retry queued: a new attempt series starts now.', 'info', true);
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    } catch (err) {
      say(err.message, 'error');
    }
  };
  // Attempts still to come: read again shortly (the view is replaced, so the timer stops with it).
  if (d.status === 'Pending') keepFresh(1500);
  const facts = [
    ['Status', badge(d.status)],
    ['Event type', h('code', {}, d.eventType)],
    ['Event id', h('code', {}, d.eventId)],
    ['Attempts', String(d.attempts)],
    ['Last HTTP status', d.lastStatusCode === null ? '—' : String(d.lastStatusCode)],
    ['Created', time(d.createdAt)],
    ['Updated', time(d.updatedAt)],
    ['Next attempt', time(d.nextAttemptAt)],
  ];
  return h(
    'section',
    { 'aria-labelledby': 'delivery-title' },
    h(
      'p',
      { class: 'crumbs' },
      h('a', { href: '#/' }, 'Subscriptions'),
      ' / ',
      h('a', { href: `#/subscriptions/${seg(subId)}` }, 'Deliveries'),
      ' / ',
      'Delivery',
    ),
    h(
      'div',
      { class: 'title-row' },
      h('h1', { id: 'delivery-title' }, 'Delivery ', h('code', {}, d.deliveryId)),
      RETRYABLE.has(d.status)
        ? h('button', { type: 'button', class: 'button primary', id: 'retry', onclick: retry }, 'Retry')
        : null,
    ),
    h(
      'dl',
      { class: 'facts card' },
      facts.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'attempts-title' },
      h('h2', { id: 'attempts-title' }, 'Attempts'),
      attemptsTable(d),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'answer-title' },
      h('h2', { id: 'answer-title' }, 'Partner’s answer to the last attempt'),
      d.responseBody === null
        ? h('p', { class: 'muted' }, 'No answer (a network error or a time-out), or no attempt yet.')
        : h('pre', { class: 'code', tabindex: 0, 'aria-label': 'Partner’s answer' }, d.responseBody),
    ),
    payloadBlock(d.payload),
  );
}
