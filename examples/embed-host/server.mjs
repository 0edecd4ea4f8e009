// A host product that embeds Sitewright's builder for its own users. Its backend opens an embed
// session with an `embed` key (never in the browser); its page mounts the frame with the SDK.
//   SITEWRIGHT_URL=http://127.0.0.1:3000 SITEWRIGHT_EMBED_KEY=wk_... node server.mjs
// then open http://localhost:4000 (add ?mode=hybrid&project=ID for the preview pane alone).
import { createServer } from 'node:http';

const { SITEWRIGHT_URL: sitewright, SITEWRIGHT_EMBED_KEY: key, PORT = '4000' } = process.env;
// The signed-in user of the host product (a real one would come from its own session).
const user = { external_id: 'host-user-1', email: 'owner@bakery.example', name: 'Luna Bakery' };

async function openSession(query) {
  const body = { user, mode: query.get('mode') || 'full', permissions: ['generate', 'edit', 'publish'] };
  if (query.get('project')) body.project_id = query.get('project');
  if (query.get('ttl')) body.ttl_seconds = Number(query.get('ttl'));
  const response = await fetch(`${sitewright}/api/embed/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error);
  return answer.session;
}

const style = `<style>body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#f4f1ec;color:#2b2118}
header{background:#7a3e12;color:#fff;padding:12px 24px;font-weight:600}main{max-width:1200px;margin:0 auto;padding:8px 24px}
#builder{background:#fff;border-radius:10px;overflow:hidden;box-shadow:0 2px 8px #0002}#events{font-size:12px;color:#6b5a4b}</style>`;

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bakery admin — website</title>${style}
<script src="${sitewright}/embed/sdk.js"></script></head>
<body><header>Bakery admin · Orders · Staff · <u>Website</u></header>
<main><h1>Your website</h1><div id="builder"></div><ol id="events" aria-label="Events"></ol></main>
<script>
const query = new URLSearchParams(location.search);
const session = () => fetch('/session?' + query, { method: 'POST' }).then((r) => r.json());
session().then((first) => {
  window.sw = Sitewright.mount(document.getElementById('builder'), {
    url: query.get('mode') === 'hybrid' ? first.preview_url : first.frame_url,
    token: first.token,
    fetchToken: () => session().then((next) => next.token),
  });
  sw.on('*', (e) => document.getElementById('events').append(Object.assign(
    document.createElement('li'), { textContent: e.type + ' ' + JSON.stringify(e.payload) })));
});
</script></body></html>`;

// Headless: no frame at all. The backend calls the REST API with the session's token (its user's
// projects only) and the host draws its own page.
async function headless(query) {
  const { token } = await openSession(new URLSearchParams({ mode: 'headless' }));
  const api = (path, init = {}) =>
    fetch(`${sitewright}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    }).then((r) => r.json());
  const prompt = query.get('prompt');
  if (prompt && query.get('project'))
    await api(`/projects/${query.get('project')}/generate`, {
      method: 'POST',
      body: JSON.stringify({ prompt }),
    });
  const { projects } = await api('/projects');
  const escape = (t) => String(t).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows = projects.map(
    (p) => `<li><h2>${escape(p.name)}</h2><p>${
      p.published_url
        ? `Live at <a href="${escape(p.published_url)}">${escape(p.published_url)}</a>`
        : 'Not published yet'
    }</p>
    <form method="post"><input type="hidden" name="project" value="${p.id}"><label>Ask for a change
    <input name="prompt" required></label> <button>Send</button></form></li>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bakery admin — websites</title>${style}</head>
<body><header>Bakery admin · Orders · Staff · <u>Website</u></header><main><h1>Your websites</h1>
<ul id="projects">${rows.join('')}</ul></main></body></html>`;
}

createServer(async (request, response) => {
  const url = new URL(request.url, 'http://host');
  try {
    if (request.method === 'POST' && url.pathname === '/session') {
      const s = await openSession(url.searchParams);
      response.setHeader('content-type', 'application/json');
      return response.end(
        JSON.stringify({ frame_url: s.frame_url, preview_url: s.preview_url, token: s.token }),
      );
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/headless') {
      let form = '';
      for await (const chunk of request) form += chunk;
      return response.end(await headless(new URLSearchParams(form)));
    }
    response.end(page);
  } catch (error) {
    response.statusCode = 502;
    response.end(String(error.message));
  }
}).listen(Number(PORT), () => console.log(`host on http://localhost:${PORT}`));
