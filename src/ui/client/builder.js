// The builder page's script: everything it does also works as plain links and form posts; this
// adds live progress, the preview's selection and editing, the code editor and no page reloads.
import { initChat, scrollChat } from './chat.js';
import { initCode } from './code.js';
import { addCopyButtons } from './copy.js';
import { initPreview, refresh } from './preview.js';
import { initImages } from './images.js';
import { post, fieldsOf, say } from './http.js';

const workspace = document.getElementById('workspace');
const projectId = workspace.dataset.project;

initPreview({ projectId });
initImages();
// The preview pane alone (embed_preview_path, or a frame's /preview) has no chat and no code panel.
if (document.getElementById('prompt-form'))
  initChat({ projectId, onFinished: () => refresh(), onSent: () => refresh() });
addCopyButtons();
const code = document.getElementById('code-form')
  ? initCode({ projectId, onChange: () => refresh() })
  : { show: async () => {} };

// Tabs switch without a reload; the address keeps the tab, so a reload or a shared link opens it.
function showTab(name) {
  for (const tab of document.querySelectorAll('.tab')) {
    if (tab.dataset.tab === name) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  for (const panel of document.querySelectorAll('.panel')) panel.hidden = panel.dataset.panel !== name;
  if (name === 'code') void code.show();
  if (name === 'chat') scrollChat(false);
}
for (const tab of document.querySelectorAll('.tab')) {
  tab.addEventListener('click', (event) => {
    if (workspace.dataset.showingVersion) return; // leaving a version's preview reloads the page
    event.preventDefault();
    showTab(tab.dataset.tab);
    history.replaceState(null, '', `?tab=${tab.dataset.tab}`);
  });
}
const current = document.querySelector('.tab[aria-current]');
if (current?.dataset.tab === 'code') void code.show();

// Publish, restore, roll back and domains: posted in place, then the page is read again so every
// panel shows the new state (these change several of them at once).
const RELOADING =
  'form[data-action="publish"], form[data-action="restore"], form[data-action="promote"], form[data-action^="domain-"]';
document.addEventListener('submit', async (event) => {
  const form = event.target instanceof Element ? event.target.closest(RELOADING) : null;
  if (!form) return;
  {
    event.preventDefault();
    const question = form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) return;
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const answer = await post(form.action, fieldsOf(form));
      document.dispatchEvent(
        new CustomEvent('sitewright:action', { detail: { action: form.dataset.action, answer } }),
      );
      const tab = document.querySelector('.tab[aria-current]')?.dataset.tab ?? 'chat';
      sessionStorage.setItem(
        'sitewright-notice',
        JSON.stringify({ notice: answer.notice, tone: answer.tone ?? 'ok' }),
      );
      location.assign(`?tab=${tab === 'versions' && form.dataset.action === 'restore' ? 'versions' : tab}`);
    } catch (error) {
      button.disabled = false;
      say(error.message, 'error');
    }
  }
});

// A new version (from a prompt, an edit, another person or the API): the versions and publish
// panels are read again from the page, so their lists and buttons are current.
document.addEventListener('sitewright:version', async () => {
  const response = await fetch(location.pathname, { headers: { accept: 'text/html' } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
  for (const id of ['panel-versions', 'panel-publish']) {
    const mine = document.getElementById(id);
    const theirs = fresh.getElementById(id);
    if (mine && theirs) mine.replaceChildren(...theirs.childNodes);
  }
  addCopyButtons();
});
// When the page can be used (read by the builder benchmark).
workspace.dataset.ready = String(Math.round(performance.now()));

const kept = sessionStorage.getItem('sitewright-notice');
if (kept) {
  sessionStorage.removeItem('sitewright-notice');
  try {
    const { notice, tone } = JSON.parse(kept);
    say(notice, tone);
  } catch {
    say(kept);
  }
}
