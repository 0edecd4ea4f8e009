// The first page of an embed frame (GET /embed/s/{session}): it says `ready` to the host page
// (only to the session's allowed origins), takes the session token the host's SDK posts back,
// checks who sent it, exchanges it once for the frame's cookie, and goes on to the builder.
const root = document.getElementById('handshake');
const origins = JSON.parse(root.dataset.origins);
const status = document.getElementById('status');

function fail(message) {
  status.textContent = message;
  root.dataset.state = 'failed';
}

window.addEventListener('message', async (event) => {
  const data = event.data;
  if (event.source !== window.parent || !origins.includes(event.origin)) return;
  if (!data || data.source !== 'sitewright' || data.v !== 1 || data.type !== 'token') return;
  const port = event.ports[0];
  try {
    const response = await fetch('/embed/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        token: data.payload.token,
        origin: event.origin,
        session: root.dataset.session,
        pane: root.dataset.pane,
        ...(root.dataset.project ? { project: root.dataset.project } : {}),
      }),
      credentials: 'same-origin',
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || 'This session cannot be opened here');
    location.replace(answer.next);
  } catch (error) {
    fail(error.message);
    if (port)
      port.postMessage({ source: 'sitewright', v: 1, type: 'error', payload: { message: error.message } });
  }
});

for (const origin of origins)
  window.parent.postMessage(
    { source: 'sitewright', v: 1, type: 'ready', payload: { authenticated: false, path: location.pathname } },
    origin,
  );
