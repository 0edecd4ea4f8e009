// The preview pane: the site in a sandboxed iframe on the preview origin, its width and page, the
// element selection (talking to the selection script inside by postMessage; messages are trusted
// only from this iframe's window), in-place text edits, and reloading when a new version appears.
import { post, say } from './http.js';

const $ = (id) => document.getElementById(id);
let frame = $('preview');
let selection = null;
let selecting = false;

const send = (message) => frame?.contentWindow?.postMessage({ sitewright: 1, ...message }, '*');

export function initPreview({ projectId }) {
  const workspace = $('workspace');
  for (const button of document.querySelectorAll('.width')) {
    button.addEventListener('click', () => {
      $('frame-wrap').dataset.width = button.dataset.width;
      for (const other of document.querySelectorAll('.width')) other.setAttribute('aria-pressed', String(other === button));
    });
  }
  $('page-picker')?.addEventListener('change', (event) => load(pageUrl(event.target.value)));
  const toggle = $('select-toggle');
  toggle?.addEventListener('click', () => setSelecting(!selecting));
  $('clear-selection')?.addEventListener('click', clearSelection);
  $('edit-text')?.addEventListener('click', () => {
    send({ type: 'edit-text' });
    frame?.focus();
    say('Type the new text in the preview; Enter saves, Escape cancels.');
  });

  window.addEventListener('message', async (event) => {
    if (!frame || event.source !== frame.contentWindow || event.data?.sitewright !== 1) return;
    const data = event.data;
    if (data.type === 'ready') {
      send({ type: 'selecting', on: selecting });
      send({ type: 'placeholders', on: true });
      const picker = $('page-picker');
      if (picker && [...picker.options].some((o) => o.value === data.file)) picker.value = data.file;
    } else if (data.type === 'select') {
      showSelection(data);
    } else if (data.type === 'text') {
      try {
        const answer = await post(`/app/projects/${projectId}/text`, { file: data.file, selector: data.selector, text: data.text });
        say(answer.notice);
        await refresh(projectId);
      } catch (error) {
        say(error.message, 'error');
        reload();
      }
    }
  });

  // A new version (made here, by another person, or through the API) reloads the preview.
  setInterval(() => refresh(projectId), 2500);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && refresh(projectId));
  workspace.dataset.lastSeen = workspace.dataset.version;
}

function pageUrl(page) {
  const base = $('workspace').dataset.preview;
  const [path, query] = base.split('?');
  return `${path}${page === 'index.html' ? '' : page}?${query}`;
}

function load(url) {
  if (!frame) {
    $('preview-empty')?.remove();
    frame = document.createElement('iframe');
    frame.id = 'preview';
    frame.title = `Preview of ${document.querySelector('.builder-title').textContent}`;
    frame.setAttribute('sandbox', 'allow-scripts allow-forms allow-popups allow-modals');
    $('frame-wrap').append(frame);
  }
  frame.src = url;
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
  if (!$('selection')) return; // the preview pane alone: selecting shows the outline only
  selection = data;
  $('selection').hidden = false;
  $('selection-tag').textContent = `<${data.tag}>`;
  $('selection-text').textContent = data.text ? `“${data.text.slice(0, 80)}${data.text.length > 80 ? '…' : ''}”` : '';
  $('edit-text').hidden = !data.editable;
  $('element-file').value = data.file;
  $('element-selector').value = data.selector;
  $('element-html').value = data.html;
  $('prompt').placeholder = 'What should change in the selected element?';
}

export function clearSelection() {
  selection = null;
  if (!$('selection')) return send({ type: 'clear' });
  $('selection').hidden = true;
  for (const id of ['element-file', 'element-selector', 'element-html']) $(id).value = '';
  send({ type: 'clear' });
}

/** Reloads the preview when the project's newest version is not the one shown. */
export async function refresh(projectId) {
  const workspace = $('workspace');
  if (workspace.dataset.showingVersion) return;
  try {
    const response = await fetch(`/app/projects/${projectId}/state`, { headers: { accept: 'application/json' } });
    if (!response.ok) return;
    const state = await response.json();
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
