// The chat: sending a prompt (aimed at the selected element when there is one), following the
// running generation's progress as server-sent events (resumed after a reload), and stopping it.
import { post, fieldsOf, say } from './http.js';

const $ = (id) => document.getElementById(id);
let stream = null;

export function initChat({ projectId, onFinished }) {
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
      addTurn(generation);
      prompt.value = '';
      follow(projectId, generation.id, onFinished);
    } catch (error) {
      send.disabled = false;
      say(error.status === 429 ? `${error.message}` : error.message, 'error');
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
  text.textContent = generation.prompt.length > 600 ? `${generation.prompt.slice(0, 600)}…` : generation.prompt;
  const meta = document.createElement('p');
  meta.className = 'turn-meta';
  meta.innerHTML = '<span class="badge"></span>';
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
  for (const [cls, value] of [['turn-summary', summary], ['turn-error', error]]) {
    if (!value) continue;
    const line = item.querySelector(`.${cls}`) ?? item.appendChild(Object.assign(document.createElement('p'), { className: cls }));
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

/** Shows the generation's events as they arrive; EventSource resumes with Last-Event-ID by itself. */
function follow(projectId, generationId, onFinished) {
  stream?.close();
  const panel = $('progress');
  const steps = $('progress-steps');
  steps.textContent = '';
  panel.hidden = false;
  $('stop-form').action = `/app/projects/${projectId}/generations/${generationId}/cancel`;
  $('prompt-form').querySelector('button[type=submit]').disabled = true;
  const item = document.querySelector(`[data-generation="${generationId}"]`);
  const source = new EventSource(`/app/projects/${projectId}/generations/${generationId}/events`);
  stream = source;
  const show = (event) => {
    const data = JSON.parse(event.data);
    const line = document.createElement('li');
    line.textContent = data.path && !data.message.includes(data.path) ? `${data.message} (${data.path})` : data.message;
    if (data.kind === 'failed') line.className = 'failed';
    steps.append(line);
    steps.scrollTop = steps.scrollHeight;
    if (data.kind === 'running' || data.kind === 'queued') setStatus(item, data.kind);
  };
  for (const kind of ['queued', 'running', 'step', 'retrying']) source.addEventListener(kind, show);
  for (const kind of ['succeeded', 'failed', 'cancelled']) {
    source.addEventListener(kind, (event) => {
      show(event);
      source.close();
      stream = null;
      const data = JSON.parse(event.data);
      setStatus(item, kind, kind === 'succeeded' ? data.message : undefined, kind === 'failed' ? data.message : undefined);
      keepSteps(item, steps);
      if (kind === 'succeeded') {
        // The site exists now: the next prompt changes it.
        document.querySelector('label[for="prompt"]').textContent = 'What should change?';
        $('prompt').placeholder = 'Make the header darker and add opening hours';
      }
      panel.hidden = true;
      $('prompt-form').querySelector('button[type=submit]').disabled = false;
      say(kind === 'succeeded' ? data.message : kind === 'cancelled' ? 'Stopped. No file was changed.' : `The generation failed: ${data.message}`, kind === 'failed' ? 'error' : 'ok');
      onFinished(kind);
    });
  }
}
