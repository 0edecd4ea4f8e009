// The embed frame's side of the host SDK's channel (embed/assets/sdk-core.js). On every page of
// the frame it says `ready` to the session's allowed origins only; the SDK answers with a
// MessageChannel port (and, when the session is about to end, a newer token over it). Events go
// out over the port (ready, resize, navigate, generation.*, project.published, session.expiring,
// error); commands come in with ids and get a `reply` or a `failed` back (prompt, open_project,
// publish, select, set_theme).
import { base, post } from './http.js';
import { refresh } from './preview.js';

const SOURCE = 'sitewright';
const root = document.querySelector('[data-embed-origins]');
const origins = JSON.parse(root.dataset.embedOrigins);
let port = null;
let hostOrigin = null;
const outbox = [];
let expiring = 0;

function send(type, payload = {}, id) {
  const message = { source: SOURCE, v: 1, type, ...(id === undefined ? {} : { id }), payload };
  if (port) port.postMessage(message);
  else outbox.push(message);
}

window.addEventListener('message', (event) => {
  const data = event.data;
  if (event.source !== window.parent || !origins.includes(event.origin)) return;
  if (!data || data.source !== SOURCE || data.v !== 1 || !event.ports[0]) return;
  if (data.type !== 'connect' && data.type !== 'token') return;
  hostOrigin = event.origin;
  port?.close();
  port = event.ports[0];
  port.onmessage = (message) => void command(message.data);
  while (outbox.length) port.postMessage(outbox.shift());
  if (data.type === 'token') void renew(data.payload?.token);
});

for (const origin of origins)
  window.parent.postMessage(
    { source: SOURCE, v: 1, type: 'ready', payload: { authenticated: true, path: location.pathname } },
    origin,
  );
send('navigate', { path: location.pathname + location.search });

new ResizeObserver(() => send('resize', { height: document.documentElement.scrollHeight })).observe(
  document.body,
);

/**
 * `session.expiring` a minute before the end (and never before half of what is left, so that a
 * short session is not renewed in a loop); the SDK answers with a newer token (renew).
 */
function watchExpiry() {
  clearTimeout(expiring);
  const left = Date.parse(root.dataset.expires) - Date.now();
  const wait = Math.max(left - 60_000, left / 2, 0);
  expiring = setTimeout(() => send('session.expiring', { expires_at: root.dataset.expires }), wait);
}
watchExpiry();

/** Exchanges a newer token for the frame's cookie; the page and its work stay as they are. */
async function renew(token) {
  if (typeof token !== 'string' || !hostOrigin) return;
  try {
    const response = await fetch('/embed/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token, origin: hostOrigin, session: root.dataset.session }),
      credentials: 'same-origin',
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || 'The session could not be renewed');
    root.dataset.expires = answer.expires_at;
    root.dataset.csrf = answer.csrf;
    for (const field of document.querySelectorAll('input[name="_csrf"]')) field.value = answer.csrf;
    watchExpiry();
  } catch (error) {
    send('error', { message: error.message });
  }
}

// What the builder does, told to the host.
document.addEventListener('sitewright:generation', (event) => relay(event.detail));
document.addEventListener('sitewright:action', (event) => {
  const { action, answer } = event.detail;
  if (action === 'publish' && answer.published) send('project.published', published(answer));
});

function relay(detail) {
  const { kind, ...rest } = detail;
  if (kind === 'started') send('generation.started', rest);
  else if (kind === 'succeeded') send('generation.succeeded', rest);
  else if (kind === 'failed' || kind === 'refused') send('generation.failed', rest);
  else if (kind === 'cancelled') send('generation.failed', { ...rest, cancelled: true });
  else send('generation.progress', { kind, ...rest });
}

function published(answer) {
  return { project_id: root.dataset.project, url: answer.published.url };
}

const COMMANDS = {
  async prompt({ text }) {
    if (typeof text !== 'string' || !text.trim()) throw new Error('prompt needs {text}');
    if (!root.dataset.project) throw new Error('open a project first (open_project)');
    const form = document.getElementById('prompt-form');
    if (form) {
      document.getElementById('prompt').value = text;
      const started = once('sitewright:generation', (d) => d.kind === 'started' || d.kind === 'refused');
      form.requestSubmit();
      const detail = await started;
      if (detail.kind === 'refused') throw new Error(detail.message);
      return { generation_id: detail.id };
    }
    // The preview pane alone: no chat on the page, so the bridge follows the generation itself.
    const { generation } = await post(`${base()}/generate`, { prompt: text });
    relay({ kind: 'started', id: generation.id, prompt: generation.prompt });
    follow(generation.id);
    return { generation_id: generation.id };
  },
  async open_project({ project_id: id }) {
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id))
      throw new Error('open_project needs {project_id}');
    location.assign(`/embed/s/${root.dataset.session}/projects/${id}`);
    return {};
  },
  async publish() {
    if (!root.dataset.project) throw new Error('open a project first (open_project)');
    const answer = await post(`${base()}/publish`, {});
    send('project.published', published(answer));
    return published(answer);
  },
  async select({ on = true } = {}) {
    const toggle = document.getElementById('select-toggle');
    if (!toggle) throw new Error('nothing to select in this view');
    if ((toggle.getAttribute('aria-pressed') === 'true') !== Boolean(on)) toggle.click();
    return { selecting: toggle.getAttribute('aria-pressed') === 'true' };
  },
  async set_theme({ accent, mode } = {}) {
    const style = document.documentElement.style;
    if (accent !== undefined) {
      if (!/^#[0-9a-f]{6}$/i.test(accent)) throw new Error('accent must be #rrggbb');
      style.setProperty('--accent', accent);
      style.setProperty('--accent-dark', accent);
    }
    if (mode !== undefined) {
      if (mode !== 'light' && mode !== 'dark') throw new Error('mode must be light or dark');
      for (const [name, dark, light] of THEME) style.setProperty(name, mode === 'dark' ? dark : light);
      style.colorScheme = mode;
    }
    return {};
  },
};

const THEME = [
  ['--bg', '#11151c', '#f6f7f9'],
  ['--surface', '#1a2029', '#ffffff'],
  ['--text', '#e8ecf1', '#1c2430'],
  ['--muted', '#a4aebb', '#5a6575'],
  ['--border', '#2f3845', '#dde2e8'],
  ['--accent-soft', '#1f2740', '#eef0fd'],
];

async function command(data) {
  if (!data || data.source !== SOURCE || data.v !== 1 || data.id === undefined) {
    if (data?.type === 'token') void renew(data.payload?.token);
    return;
  }
  const run = COMMANDS[data.type];
  try {
    if (!run) throw new Error(`unknown command '${data.type}'`);
    send('reply', await run(data.payload ?? {}), data.id);
  } catch (error) {
    send('failed', { message: error.message }, data.id);
    send('error', { command: data.type, message: error.message });
  }
}

function once(type, accept) {
  return new Promise((resolve) => {
    const listen = (event) => {
      if (!accept(event.detail)) return;
      document.removeEventListener(type, listen);
      resolve(event.detail);
    };
    document.addEventListener(type, listen);
  });
}

/** A generation's events, for the pane (the full builder's chat follows its own). */
function follow(id) {
  const source = new EventSource(`${base()}/generations/${id}/events`);
  const show = (event) => {
    const data = JSON.parse(event.data);
    relay({ kind: data.kind, id, message: data.message, ...(data.path ? { path: data.path } : {}) });
  };
  for (const kind of ['queued', 'running', 'step', 'retrying']) source.addEventListener(kind, show);
  for (const kind of ['succeeded', 'failed', 'cancelled'])
    source.addEventListener(kind, (event) => {
      source.close();
      show(event);
      if (kind === 'succeeded') void refresh();
    });
}
