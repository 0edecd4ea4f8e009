// Posting the builder's forms with fetch: the same fields a plain form post sends, answered as JSON
// ({notice, ...} or {error}) instead of a redirect, and the notice shown in the status line.
const workspace = () => document.getElementById('workspace');

/** Where the builder's project answers: /app/projects/{id}, or /embed/s/{session}/projects/{id} in a frame. */
export const base = () => workspace().dataset.base;

export async function post(path, fields) {
  const response = await fetch(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-csrf-token': workspace().dataset.csrf,
    },
    body: JSON.stringify(fields),
    credentials: 'same-origin',
  });
  let body = {};
  try {
    body = await response.json();
  } catch {
    body = { error: `The server answered ${response.status}` };
  }
  if (!response.ok) {
    const error = new Error(body.error ?? `The server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

/** The fields of a form as a plain object (the CSRF token travels in a header instead). */
export function fieldsOf(form) {
  const fields = {};
  for (const [name, value] of new FormData(form))
    if (name !== '_csrf' && typeof value === 'string') fields[name] = value;
  return fields;
}

/** Shows a message in the status line: `ok`, `warning` (done, but something needs the person) or `error`. */
export function say(message, kind = 'ok') {
  const line = document.getElementById('notice');
  line.textContent = '';
  const span = document.createElement('span');
  span.className = kind === 'error' || kind === 'warning' ? `notice ${kind}` : 'notice';
  span.textContent = message;
  line.append(span);
}
