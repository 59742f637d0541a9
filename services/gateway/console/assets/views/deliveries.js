// One subscription's delivery log: filters (status, event type, time range) and paging, newest first.
import { api, query } from '../api.js';
import { badge, h, isoOf, localOf, table, time } from '../dom.js';
import { seg } from '../ids.js';

const PAGE_SIZE = 20;

function filterForm(config, filter, subId) {
  const select = (name, label, values) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `f-${name}` }, label),
      h(
        'select',
        { id: `f-${name}`, name },
        h('option', { value: '' }, 'Any'),
        values.map((v) => h('option', { value: v, selected: filter[name] === v }, v)),
      ),
    );
  const when = (name, label) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `f-${name}` }, label),
      h('input', { id: `f-${name}`, name, type: 'datetime-local', step: 1, value: localOf(filter[name]) }),
    );
  const form = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter deliveries',
      onsubmit: (e) => {
        e.preventDefault();
        location.hash = `#/subscriptions/${seg(subId)}${query({
          status: form.status.value,
          eventType: form.eventType.value,
          createdFrom: isoOf(form.createdFrom.value),
          createdBefore: isoOf(form.createdBefore.value),
        })}`;
      },
    },
    select('status', 'Status', config.deliveryStatuses),
    select('eventType', 'Event type', config.eventTypes),
    when('createdFrom', 'Created from'),
    when('createdBefore', 'Created before'),
    h(
      'div',
      { class: 'field buttons' },
      h('button', { type: 'submit', class: 'button primary' }, 'Apply'),
      h('a', { class: 'button', href: `#/subscriptions/${seg(subId)}` }, 'Clear'),
    ),
  );
  return form;
}

function pager(res, filter, subId) {
  const link = (page, text, rel) =>
    page < 1 || page > res.totalPages
      ? h('span', { class: 'button disabled', 'aria-disabled': 'true' }, text)
      : h('a', { class: 'button', rel, href: `#/subscriptions/${seg(subId)}${query({ ...filter, page })}` }, text);
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    link(res.page - 1, '← Newer', 'prev'),
    h('span', { class: 'page-of' }, `Page ${res.page} of ${Math.max(res.totalPages, 1)} · ${res.total} deliveries`),
    link(res.page + 1, 'Older →', 'next'),
  );
}

export async function deliveriesView(config, subId, filter) {
  const [sub, res] = await Promise.all([
    api('GET', `/webhooks/${seg(subId)}`).catch(() => null),
    api('GET', `/webhooks/${seg(subId)}/deliveries${query({ ...filter, pageSize: filter.pageSize ?? PAGE_SIZE })}`),
  ]);
  const rows = res.items.map((d) =>
    h(
      'tr',
      { 'data-delivery': d.deliveryId },
      h('td', {}, time(d.createdAt)),
      h('td', {}, h('code', {}, d.eventType)),
      h('td', {}, badge(d.status)),
      h('td', { class: 'num' }, d.attempts),
      h('td', { class: 'num' }, d.lastStatusCode ?? h('span', { class: 'muted' }, '—')),
      h('td', {}, time(d.nextAttemptAt)),
      h(
        'td',
        {},
        h(
          'a',
          {
            href: `#/subscriptions/${seg(subId)}/deliveries/${seg(d.deliveryId)}`,
            'aria-label': `Open delivery ${d.deliveryId}`,
          },
          'Open',
        ),
      ),
    ),
  );
  return h(
    'section',
    { 'aria-labelledby': 'log-title' },
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'Subscriptions'), ' / ', 'Deliveries'),
    h('h1', { id: 'log-title' }, 'Deliveries'),
    sub
      ? h('p', { class: 'sub-line' }, h('code', {}, sub.url), ' ', badge(sub.IsActive ? 'Active' : 'Disabled'))
      : h('p', { class: 'sub-line muted' }, 'Deleted subscription (its log stays readable for 30 days).'),
    filterForm(config, filter, subId),
    rows.length
      ? table(['Created', 'Event type', 'Status', 'Attempts', 'Last HTTP status', 'Next attempt', 'Detail'], rows)
      : h('p', { class: 'empty card' }, 'No deliveries match.'),
    pager(res, filter, subId),
  );
}
