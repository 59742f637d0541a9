// The console's shell: sign-in, the header, and a hash router over the three views.
import { api, currentSession, signIn, signOut, SIGNED_OUT } from './api.js';
import { h, notice } from './dom.js';
import { isId, NotFound } from './ids.js';
import { deliveriesView } from './views/deliveries.js';
import { deliveryView } from './views/delivery.js';
import { subscriptionsView } from './views/subscriptions.js';

const view = document.getElementById('view');
const who = document.getElementById('who');
const company = document.getElementById('company');
let config;
let refresh;
/** Bumped by every route(): a slower, older draw never replaces a newer one. */
let drawing = 0;
let pendingNotice;

/** A message above the view; `carry`: also above the next view drawn (an action that redraws the page). */
function say(text, kind = 'info', carry = false) {
  const shown = notice(text, kind);
  view.querySelector('.notice')?.remove();
  view.prepend(shown);
  pendingNotice = carry ? notice(text, kind) : undefined;
}

function signInView(reason) {
  who.hidden = true;
  const status = h('div', { 'aria-live': 'polite' }, reason ? notice(reason, 'info') : null);
  const form = h(
    'form',
    {
      class: 'card sign-in',
      onsubmit: async (e) => {
        e.preventDefault();
        const button = form.querySelector('button');
        button.disabled = true;
        try {
          await signIn(form.apiKey.value);
          form.apiKey.value = '';
          await route();
        } catch (err) {
          status.replaceChildren(notice(err.message, 'error'));
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h1', {}, 'Sign in'),
    h(
      'p',
      { class: 'muted' },
      'Sign in with one of your company’s API keys. The console sees and changes exactly what that key may.',
    ),
    h('label', { for: 'apiKey' }, 'API key'),
    h('input', {
      id: 'apiKey',
      name: 'apiKey',
      type: 'password',
      required: true,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'tek_…',
    }),
    status,
    h('button', { type: 'submit', class: 'button primary' }, 'Sign in'),
  );
  view.replaceChildren(form);
  form.apiKey.focus();
}

/** The filters and paging a delivery log's address may carry; other parameters are dropped. */
const LOG_PARAMS = ['status', 'eventType', 'createdFrom', 'createdBefore', 'page', 'pageSize'];

/** One decoded segment of the address; a malformed escape names nothing. */
function decoded(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/**
 * Parses `#/`, `#/subscriptions/<id>?…` and `#/subscriptions/<id>/deliveries/<deliveryId>` into a view.
 * Exactly these shapes, with ids as the services issue them: anything else is "not found", shown without
 * a request, so a crafted link cannot steer the page's calls (docs/decisions/0193).
 */
async function draw() {
  const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decoded);
  const all = Object.fromEntries(new URLSearchParams(search));
  const params = Object.fromEntries(LOG_PARAMS.filter((k) => k in all).map((k) => [k, all[k]]));
  // `#/` (or an in-page anchor such as the skip link's `#view`): the subscriptions.
  if (!path.startsWith('/') || parts.length === 0) return subscriptionsView(config, say);
  if (parts[0] !== 'subscriptions' || !isId(parts[1])) throw new NotFound();
  if (parts.length === 2) return deliveriesView(config, parts[1], params);
  if (parts.length === 4 && parts[2] === 'deliveries' && isId(parts[3]))
    return deliveryView(parts[1], parts[3], say, (ms) => (refresh = setTimeout(route, ms)));
  throw new NotFound();
}

/** The view of an address that names nothing: no request was made for it. */
function notFoundView() {
  return h(
    'section',
    { 'aria-labelledby': 'not-found-title' },
    h('h1', { id: 'not-found-title' }, 'Not found'),
    h('p', {}, 'This address names no subscription or delivery.'),
    h('p', {}, h('a', { href: '#/' }, 'Back to the subscriptions')),
  );
}

async function route() {
  clearTimeout(refresh);
  const mine = ++drawing;
  const shown = location.hash;
  const session = await currentSession();
  if (!session) return signInView();
  config ??= await (await fetch('/console/config.json')).json();
  who.hidden = false;
  if (!company.textContent) {
    const me = await api('GET', '/company').catch(() => null);
    company.textContent = me ? `${me.name}` : '';
  }
  try {
    const next = await draw();
    if (mine !== drawing) return;
    const carried = pendingNotice;
    pendingNotice = undefined;
    view.replaceChildren(...(carried ? [carried] : []), next);
    // Which address the view shows: a test (or a script) can wait for it instead of guessing.
    view.dataset.shown = shown;
  } catch (err) {
    if (err?.status === 401 || mine !== drawing) return;
    if (err instanceof NotFound) view.replaceChildren(notFoundView());
    else
      view.replaceChildren(
        notice(err.message, 'error'),
        h('p', {}, h('a', { href: '#/' }, 'Back to the subscriptions')),
      );
    view.dataset.shown = shown;
  }
}

window.addEventListener('hashchange', () => void route());
window.addEventListener(SIGNED_OUT, (e) => {
  company.textContent = '';
  signInView(`Signed out: ${e.detail}`);
});
document.getElementById('sign-out').addEventListener('click', async () => {
  clearTimeout(refresh);
  await signOut().catch(() => undefined);
  company.textContent = '';
  location.hash = '#/';
  signInView('Signed out.');
});
void route();
