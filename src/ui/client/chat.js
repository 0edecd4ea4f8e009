// The chat: sending a prompt (aimed at the selected element when there is one), following the
// running generation's progress as server-sent events (resumed after a reload), and stopping it.
// The log follows the newest message, and the AI messages counter follows every message (the
// project's state, read after a message is sent, when it ends, and every few seconds).
import { base, post, fieldsOf, say } from './http.js';

const $ = (id) => document.getElementById(id);
let stream = null;

/** The element that scrolls the chat: its panel beside the preview, or the page when stacked. */
function scroller() {
  const panel = $('panel-chat');
  return panel && getComputedStyle(panel).overflowY !== 'visible' ? panel : document.scrollingElement;
}

/** True when the log shows its end (so new lines may carry it along). */
function atEnd() {
  const box = scroller();
  return box.scrollHeight - box.scrollTop - box.clientHeight < 80;
}

/**
 * Shows the newest message: the end of the panel, or where the page scrolls (stacked, on narrow
 * screens) the last turn or the progress, unless `movePage` is false (opening the page or the tab
 * leaves the page where it is).
 */
export function scrollChat(movePage = true) {
  const panel = $('panel-chat');
  if (!panel || panel.hidden) return;
  const box = scroller();
  if (box === panel) panel.scrollTop = panel.scrollHeight;
  else if (movePage)
    (
      ($('progress') && !$('progress').hidden ? $('progress') : null) ?? $('history').lastElementChild
    )?.scrollIntoView({ block: 'nearest' });
}

/** The first sentence of a message (up to 200 characters). */
function firstSentence(message) {
  const end = message.search(/[.:](\s|$)/);
  const sentence = end === -1 ? message : message.slice(0, end + 1);
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}

/** The counter of AI messages today, from the project's state (null: the client has no limit). */
function showAllowance(allowance) {
  const line = $('allowance');
  if (!line || !allowance) return;
  const left = Math.max(0, allowance.limit - allowance.used);
  $('allowance-used').textContent = String(allowance.used);
  $('allowance-limit').textContent = String(allowance.limit);
  $('allowance-left').textContent = `${left} left`;
  line.classList.toggle('spent', left === 0);
  const when = `${allowance.renews_at.slice(0, 16).replace('T', ' ')} UTC`;
  $('allowance-renewal').textContent =
    left === 0
      ? `The daily limit is reached: prompts are refused until it renews at ${when}. Your agency can raise it with another plan.`
      : `Renews at ${when}.`;
}

export function initChat({ projectId, onFinished, onSent }) {
  document.addEventListener('sitewright:state', (event) => showAllowance(event.detail?.allowance));
  scrollChat(false);
  const form = $('prompt-form');
  const prompt = $('prompt');
  prompt.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const send = form.querySelector('button[type=submit]');
    send.disabled = true;
    try {
      const { generation } = await post(form.action, fieldsOf(form));
      tell('started', { id: generation.id, prompt: generation.prompt });
      addTurn(generation);
      prompt.value = '';
      follow(projectId, generation.id, onFinished);
      scrollChat();
      onSent?.();
    } catch (error) {
      send.disabled = false;
      say(error.message, 'error');
      tell('refused', { message: error.message, status: error.status });
      if (error.status === 429) onSent?.();
    }
  });
  $('stop-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await post(event.target.action, {});
    } catch (error) {
      say(error.message, 'error');
    }
  });
  const running = $('workspace').dataset.running;
  if (running) follow(projectId, running, onFinished);
}

function addTurn(generation) {
  $('history').querySelector('.history-empty')?.remove();
  const item = document.createElement('li');
  item.className = 'turn';
  item.dataset.generation = generation.id;
  const text = document.createElement('p');
  text.className = 'turn-prompt';
  text.textContent =
    generation.prompt.length > 600 ? `${generation.prompt.slice(0, 600)}…` : generation.prompt;
  const meta = document.createElement('p');
  meta.className = 'turn-meta';
  meta.innerHTML = '<span class="badge"></span> <time></time>';
  const time = meta.querySelector('time');
  time.dateTime = generation.created_at;
  time.textContent = `${generation.created_at.slice(0, 16).replace('T', ' ')} UTC`;
  item.append(text, meta);
  $('history').append(item);
  setStatus(item, generation.status);
}

function setStatus(item, status, summary, error) {
  if (!item) return;
  item.dataset.status = status;
  const badge = item.querySelector('.badge');
  badge.className = `badge ${status}`;
  badge.textContent = status;
  for (const [cls, value] of [
    ['turn-summary', summary],
    ['turn-error', error],
  ]) {
    if (!value) continue;
    const line =
      item.querySelector(`.${cls}`) ??
      item.appendChild(Object.assign(document.createElement('p'), { className: cls }));
    line.textContent = value;
  }
}

/** The finished generation's steps stay with its turn, folded. */
function keepSteps(item, steps) {
  if (!item || steps.children.length === 0) return;
  const details = document.createElement('details');
  details.className = 'turn-steps';
  const summary = document.createElement('summary');
  summary.textContent = `${steps.children.length} steps`;
  const list = document.createElement('ol');
  list.append(...steps.children);
  details.append(summary, list);
  item.append(details);
}

/** Tells the rest of the page (an embed frame's bridge) how a generation goes. */
function tell(kind, detail) {
  document.dispatchEvent(new CustomEvent('sitewright:generation', { detail: { kind, ...detail } }));
}

/** Shows the generation's events as they arrive; EventSource resumes with Last-Event-ID by itself. */
function follow(projectId, generationId, onFinished) {
  stream?.close();
  const panel = $('progress');
  const steps = $('progress-steps');
  steps.textContent = '';
  panel.hidden = false;
  $('stop-form').action = `${base()}/generations/${generationId}/cancel`;
  $('prompt-form').querySelector('button[type=submit]').disabled = true;
  const item = document.querySelector(`[data-generation="${generationId}"]`);
  const source = new EventSource(`${base()}/generations/${generationId}/events`);
  stream = source;
  const show = (event) => {
    const data = JSON.parse(event.data);
    const line = document.createElement('li');
    line.textContent =
      data.path && !data.message.includes(data.path) ? `${data.message} (${data.path})` : data.message;
    if (data.kind === 'failed') line.className = 'failed';
    const following = atEnd();
    steps.append(line);
    steps.scrollTop = steps.scrollHeight;
    if (following) scrollChat();
    if (data.kind === 'running' || data.kind === 'queued') setStatus(item, data.kind);
    tell(data.kind, { id: generationId, message: data.message, ...(data.path ? { path: data.path } : {}) });
  };
  for (const kind of ['queued', 'running', 'step', 'retrying']) source.addEventListener(kind, show);
  for (const kind of ['succeeded', 'failed', 'cancelled']) {
    source.addEventListener(kind, (event) => {
      show(event);
      source.close();
      stream = null;
      const data = JSON.parse(event.data);
      const following = atEnd();
      setStatus(
        item,
        kind,
        kind === 'succeeded' ? data.message : undefined,
        kind === 'failed' ? data.message : undefined,
      );
      keepSteps(item, steps);
      if (kind === 'succeeded') {
        // The site exists now: the next prompt changes it.
        document.querySelector('label[for="prompt"]').textContent = 'What should change?';
        $('prompt').placeholder = 'Make the header darker and add opening hours';
      }
      panel.hidden = true;
      $('prompt-form').querySelector('button[type=submit]').disabled = false;
      // The status line says it in a sentence (the whole error stays with the message in the log).
      say(
        kind === 'succeeded'
          ? data.message
          : kind === 'cancelled'
            ? 'Stopped. No file was changed.'
            : `The generation failed: ${firstSentence(data.message)}`,
        kind === 'failed' ? 'error' : 'ok',
      );
      // After the status line, whose height moves the log.
      if (following) scrollChat();
      onFinished(kind);
    });
  }
}
