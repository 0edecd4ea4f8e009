// The preview pane: the site in a sandboxed iframe on the preview origin, its width and page, the
// element selection, in-place text edits, and reloading when a new version appears.
//
// Each load of the preview is a new iframe made here, after this page listens. The selection
// script (edge/assets/preview-edit.js) is the first script of the page it loads: at once it sends
// `hello` with one end of a MessageChannel. The first `hello` of each frame is taken (later ones,
// whoever sends them, are not), a nonce for this load is sent back through that port, and from
// then on the preview is heard through that port only, with that nonce: what a site's own script
// posts to this window is never taken as a selection or an edit. A selection counts only while
// the person is selecting, and an edited text only in an edit the person started here (the
// button, or Enter in the preview, which asks here first), for the element that was selected.
import { base, post, say } from './http.js';

const $ = (id) => document.getElementById(id);
let selection = null;
let selecting = false;
/** The frame whose first message is still to come: only that one may be its `hello`. */
let awaiting = null;
/** This load's port and nonce. */
let channel = null;
/** The edit the person started: its page and element. */
let editing = null;

const send = (message) => channel?.port.postMessage({ sitewright: 1, ...message, nonce: channel.nonce });

function randomNonce() {
  const bytes = window.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The first message of a new frame: the selection script's `hello` and its port. */
function connect(projectId, event) {
  awaiting = null;
  const [port] = event.ports;
  if (event.data?.sitewright !== 1 || event.data.type !== 'hello' || event.ports.length !== 1) return;
  const nonce = randomNonce();
  channel = { port, nonce };
  port.onmessage = (message) => {
    if (channel?.nonce === nonce && message.data?.sitewright === 1 && message.data.nonce === nonce)
      void heard(projectId, message.data);
  };
  port.postMessage({ sitewright: 1, type: 'connect', nonce });
}

/** What the selection script reports, through this load's port. */
async function heard(projectId, data) {
  if (data.type === 'ready') {
    send({ type: 'selecting', on: selecting });
    send({ type: 'placeholders', on: true });
    const picker = $('page-picker');
    if (picker && [...picker.options].some((o) => o.value === data.file)) picker.value = data.file;
  } else if (data.type === 'select') {
    if (selecting) showSelection(data);
  } else if (data.type === 'edit-request') {
    if (selection && data.selector === selection.selector && data.file === selection.file) startEdit();
  } else if (data.type === 'edit-cancelled') {
    editing = null;
  } else if (data.type === 'text') {
    const edit = editing;
    if (!edit || data.file !== edit.file || data.selector !== edit.selector || typeof data.text !== 'string')
      return;
    editing = null;
    try {
      const answer = await post(`${base()}/text`, {
        file: edit.file,
        selector: edit.selector,
        text: data.text,
      });
      say(answer.notice);
      await refresh();
    } catch (error) {
      say(error.message, 'error');
      reload();
    }
  }
}

/**
 * The person asks to edit the selected element's text: the preview may send it, once. The frame
 * is focused here first, before the message goes: a script inside a cross-origin frame cannot
 * reliably pull the focus into it (Chromium let the keys go on to the builder's button). The
 * frame hears of that focus late, maybe after the message (preview-edit.js copes).
 */
function startEdit() {
  if (!selection?.editable || !channel) return;
  editing = { file: selection.file, selector: selection.selector };
  $('preview')?.focus();
  send({ type: 'edit-text', selector: selection.selector });
  say('Type the new text in the preview; Enter saves, Escape cancels.');
}

export function initPreview({ projectId }) {
  const workspace = $('workspace');
  for (const button of document.querySelectorAll('.width')) {
    button.addEventListener('click', () => {
      $('frame-wrap').dataset.width = button.dataset.width;
      for (const other of document.querySelectorAll('.width'))
        other.setAttribute('aria-pressed', String(other === button));
    });
  }
  $('page-picker')?.addEventListener('change', (event) => load(pageUrl(event.target.value)));
  const toggle = $('select-toggle');
  toggle?.addEventListener('click', () => setSelecting(!selecting));
  $('clear-selection')?.addEventListener('click', clearSelection);
  $('edit-text')?.addEventListener('click', startEdit);
  // The person leaving the preview while editing (a click or Tab here) ends the edit, saved: only
  // this page knows it at once (the frame hears of focus changes late, see preview-edit.js).
  document.addEventListener('focusout', (event) => {
    if (editing && event.target === $('preview')) send({ type: 'end-edit' });
  });

  // Only the first message of each frame is heard here: the selection script's `hello`.
  window.addEventListener('message', (event) => {
    if (awaiting && event.source === awaiting.contentWindow) connect(projectId, event);
  });
  // The server's frame of the current files is for browsers without scripts (noscript); this
  // one is made after the listener. A version's preview has no selection script: it is kept.
  if ($('frame-wrap')?.querySelector('noscript')) load(pageUrl('index.html'));

  // A new version (made here, by another person, or through the API) reloads the preview.
  setInterval(() => refresh(), 2500);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && refresh());
  workspace.dataset.lastSeen = workspace.dataset.version;
}

function pageUrl(page) {
  const base = $('workspace').dataset.preview;
  const [path, query] = base.split('?');
  return `${path}${page === 'index.html' ? '' : page}?${query}`;
}

/** A new frame for every load, so that its first message can only be its own page's first script's. */
function load(url) {
  $('preview-empty')?.remove();
  channel?.port.close();
  channel = null;
  editing = null;
  const fresh = document.createElement('iframe');
  fresh.id = 'preview';
  fresh.title = $('frame-wrap').dataset.title;
  fresh.setAttribute('sandbox', 'allow-scripts allow-forms allow-popups allow-modals');
  fresh.src = url;
  awaiting = fresh;
  const old = $('preview');
  if (old) old.replaceWith(fresh);
  else $('frame-wrap').append(fresh);
}

function reload() {
  const picker = $('page-picker');
  load(pageUrl(picker && !picker.hidden ? picker.value : 'index.html'));
}

function setSelecting(on) {
  selecting = on;
  $('select-toggle')?.setAttribute('aria-pressed', String(on));
  send({ type: 'selecting', on });
  if (on) say('Click an element in the preview (or focus the preview and use the arrow keys) to select it.');
}

function showSelection(data) {
  selection = { file: data.file, selector: data.selector, editable: data.editable === true };
  editing = null;
  if (!$('selection')) return; // the preview pane alone: the outline shows it (Enter edits its text)
  $('selection').hidden = false;
  $('selection-tag').textContent = `<${data.tag}>`;
  $('selection-text').textContent = data.text
    ? `“${data.text.slice(0, 80)}${data.text.length > 80 ? '…' : ''}”`
    : '';
  $('edit-text').hidden = !selection.editable;
  $('element-file').value = data.file;
  $('element-selector').value = data.selector;
  $('element-html').value = data.html;
  $('prompt').placeholder = 'What should change in the selected element?';
  document.dispatchEvent(new CustomEvent('sitewright:selected', { detail: { ...data } }));
}

export function clearSelection() {
  selection = null;
  editing = null;
  if (!$('selection')) return send({ type: 'clear' });
  $('selection').hidden = true;
  for (const id of ['element-file', 'element-selector', 'element-html']) $(id).value = '';
  send({ type: 'clear' });
  document.dispatchEvent(new CustomEvent('sitewright:selected', { detail: null }));
}

/**
 * Reads the project's state: tells the page (`sitewright:state`: the AI messages counter follows
 * it), and reloads the preview when the project's newest version is not the one shown.
 */
export async function refresh() {
  const workspace = $('workspace');
  try {
    const response = await fetch(`${base()}/state`, {
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return;
    const state = await response.json();
    document.dispatchEvent(new CustomEvent('sitewright:state', { detail: state }));
    if (workspace.dataset.showingVersion) return;
    const number = String(state.version?.number ?? 0);
    if (number !== workspace.dataset.lastSeen) {
      workspace.dataset.lastSeen = number;
      workspace.dataset.version = number;
      reload();
      if (selection) clearSelection();
      document.dispatchEvent(new CustomEvent('sitewright:version', { detail: state }));
    }
  } catch {
    // offline for a moment: the next tick tries again
  }
}
