// Sitewright's host SDK: mounts the embeddable builder (or its preview pane) in an iframe on the
// host's page and talks to it by postMessage. No dependencies. The token never travels in a URL:
// the frame says `ready`, the SDK answers with the token (exact target origin, never '*') and a
// MessageChannel port, over which events and commands then travel.
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the wrappers (embed/plugin.ts)
function createSitewright() {
  const SOURCE = 'sitewright';
  const V = 1;

  function mount(element, options) {
    if (!element || !options || typeof options.url !== 'string')
      throw new TypeError(
        'Sitewright.mount(element, { url, fetchToken }) needs an element and the session’s frame_url',
      );
    const frameOrigin = new URL(options.url).origin;
    const listeners = new Map();
    const pending = new Map();
    let port = null;
    let firstToken = typeof options.token === 'string' ? options.token : null;
    let nextId = 1;
    /** Whether the frame's page is the builder (not the handshake): commands go to it. */
    let ready = false;
    const queue = [];

    const iframe = document.createElement('iframe');
    iframe.src = options.url;
    iframe.title = options.title || 'Website builder';
    iframe.setAttribute('allow', 'clipboard-write');
    iframe.style.width = '100%';
    iframe.style.border = '0';
    iframe.style.display = 'block';
    iframe.style.height = options.height || '640px';
    element.appendChild(iframe);

    function emit(type, payload) {
      for (const fn of listeners.get(type) || []) {
        try {
          fn(payload);
        } catch (error) {
          setTimeout(() => {
            throw error;
          });
        }
      }
      for (const fn of listeners.get('*') || []) fn({ type, payload });
    }

    async function token() {
      if (firstToken) {
        const t = firstToken;
        firstToken = null;
        return t;
      }
      if (typeof options.fetchToken !== 'function') throw new Error('no fetchToken to get a session token');
      const t = await options.fetchToken();
      if (typeof t !== 'string' || !t.startsWith('embt_'))
        throw new Error('fetchToken must resolve to an embt_ token');
      return t.trim();
    }

    function onPortMessage(event) {
      const data = event.data;
      if (!data || data.source !== SOURCE || data.v !== V) return;
      if (data.type === 'reply' || data.type === 'failed') {
        const waiting = pending.get(data.id);
        if (!waiting) return;
        pending.delete(data.id);
        if (data.type === 'reply') waiting.resolve(data.payload);
        else waiting.reject(new Error((data.payload && data.payload.message) || 'the command failed'));
        return;
      }
      if (data.type === 'resize' && options.autoResize !== false && data.payload && data.payload.height > 0)
        iframe.style.height = `${Math.ceil(data.payload.height)}px`;
      if (data.type === 'session.expiring') refresh();
      emit(data.type, data.payload);
    }

    async function refresh() {
      try {
        const fresh = await token();
        if (port) port.postMessage({ source: SOURCE, v: V, type: 'token', payload: { token: fresh } });
      } catch (error) {
        emit('error', { message: String((error && error.message) || error) });
      }
    }

    async function onWindowMessage(event) {
      if (event.source !== iframe.contentWindow || event.origin !== frameOrigin) return;
      const data = event.data;
      if (!data || data.source !== SOURCE || data.v !== V || data.type !== 'ready') return;
      const channel = new MessageChannel();
      if (port) port.close();
      // Commands sent over the page that is gone get no reply: they fail rather than wait forever.
      for (const waiting of pending.values()) waiting.reject(new Error('the frame moved on before replying'));
      pending.clear();
      port = channel.port1;
      port.onmessage = onPortMessage;
      const payload = data.payload || {};
      ready = Boolean(payload.authenticated);
      let message = { source: SOURCE, v: V, type: 'connect', payload: {} };
      if (!payload.authenticated) {
        try {
          message = { source: SOURCE, v: V, type: 'token', payload: { token: await token() } };
        } catch (error) {
          emit('error', { message: String((error && error.message) || error) });
          return;
        }
      }
      iframe.contentWindow.postMessage(message, frameOrigin, [channel.port2]);
      emit('ready', payload);
      // Commands wait for the builder itself (the handshake page takes none).
      if (payload.authenticated) while (queue.length) port.postMessage(queue.shift());
    }
    window.addEventListener('message', onWindowMessage);

    return {
      iframe,
      on(type, fn) {
        if (!listeners.has(type)) listeners.set(type, new Set());
        listeners.get(type).add(fn);
        return this;
      },
      off(type, fn) {
        if (listeners.has(type)) listeners.get(type).delete(fn);
        return this;
      },
      /** A command (`prompt`, `open_project`, `publish`, `select`, `set_theme`); resolves with its reply. */
      send(type, payload) {
        const id = nextId++;
        const message = { source: SOURCE, v: V, type, id, payload: payload || {} };
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
          if (port && ready) port.postMessage(message);
          else queue.push(message);
        });
      },
      destroy() {
        window.removeEventListener('message', onWindowMessage);
        if (port) port.close();
        iframe.remove();
      },
    };
  }

  return { mount, version: V };
}
