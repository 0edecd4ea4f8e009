// The builder's selection script, added to preview pages opened with ?edit=1 as the page's very
// first script (edge/preview.ts puts it right after the doctype), so that it runs before any of
// the site's own. It runs inside the sandboxed preview (an opaque origin) and talks to the builder
// page that frames it through a MessageChannel only: at once, before any site script exists, it
// makes the channel and sends one end to its parent with `hello`; the builder takes the first
// `hello` of each preview frame it makes (so this one), answers through that port with a nonce
// for this load, and hears nothing else: what a site script posts with window.postMessage is
// never taken as a selection or an edit, and the port this script keeps is never in any event of
// the page. What it does with the port and its messages goes through the browser's functions as
// they were when it started (a site script may replace them later). Clicks and keys count only
// when the browser made them (isTrusted), so a site script cannot select or edit on the person's
// behalf either. It reports the selected element (its page, a selector, tag, text and HTML) and,
// in an edit the builder started, the edited text; it never reads or sends anything else, and
// does nothing when the page is not framed.
(() => {
  if (window.parent === window) return;
  // The browser's own functions, kept before any site script runs.
  const call = Function.prototype.call;
  const bind = (fn) => call.bind(fn);
  const dataOf = bind(Object.getOwnPropertyDescriptor(window.MessageEvent.prototype, 'data').get);
  const listen = bind(window.EventTarget.prototype.addEventListener);
  const portPost = bind(window.MessagePort.prototype.postMessage);
  const portStart = bind(window.MessagePort.prototype.start);

  const FILE = document.currentScript?.getAttribute('data-sitewright-file') ?? 'index.html';
  const MARKS = ['data-sw-hover', 'data-sw-selected'];
  const { port1: port, port2 } = new window.MessageChannel();
  /** This load's nonce, from the builder through the port; nothing is sent before it came. */
  let nonce = '';
  let selecting = false;
  let selected = null;
  let editing = null;

  /** To the builder, through this load's port only. */
  const post = (message) => {
    if (nonce) portPost(port, { sitewright: 1, file: FILE, ...message, nonce });
  };

  const style = document.createElement('style');
  style.textContent = `
    [data-sw-selecting] * { cursor: crosshair !important; }
    [data-sw-hover] { outline: 2px dashed #6366f1 !important; outline-offset: 2px !important; }
    [data-sw-selected] { outline: 3px solid #4338ca !important; outline-offset: 2px !important; }
    [data-sw-placeholders] [data-placeholder] { outline: 2px dashed #d97706 !important; outline-offset: 2px !important; background-color: rgba(251, 191, 36, .18) !important; }
    [contenteditable][data-sw-selected] { outline-style: double !important; background-color: rgba(99, 102, 241, .08) !important; }`;
  (document.head ?? document.documentElement).appendChild(style);

  /** `html > body:nth-child(2) > main:nth-child(1) > h2:nth-child(3)`: exact, and readable on the server. */
  function selectorOf(element) {
    const steps = [];
    for (let node = element; node && node !== document.documentElement; node = node.parentElement) {
      const index = Array.prototype.indexOf.call(node.parentElement.children, node) + 1;
      steps.unshift(`${node.localName}:nth-child(${index})`);
    }
    return ['html', ...steps].join(' > ');
  }

  /** Its HTML without this script's marks. */
  function cleanHtml(element) {
    const copy = element.cloneNode(true);
    for (const node of [copy, ...copy.querySelectorAll('*')]) {
      for (const mark of [...MARKS, 'contenteditable']) node.removeAttribute(mark);
    }
    return copy.outerHTML.slice(0, 20000);
  }

  /** Text only (and line breaks): an element whose words can be edited in place. */
  const isTextOnly = (element) =>
    element.childNodes.length > 0 &&
    [...element.childNodes].every(
      (n) => n.nodeType === Node.TEXT_NODE || (n.nodeType === Node.ELEMENT_NODE && n.localName === 'br'),
    ) &&
    element.textContent.trim() !== '';

  /**
   * Its words as written, each <br> a newline: innerText would give them as shown, so a
   * `text-transform: uppercase` heading would be saved in capitals. Spaces and the source's line
   * ends collapse as they do on the page, unless the element's white-space keeps them.
   */
  function wordsOf(element) {
    const space = getComputedStyle(element).whiteSpace;
    const keepSpaces = /^(pre|pre-wrap|break-spaces)$/.test(space);
    const keepLines = keepSpaces || space === 'pre-line';
    const text = [...element.childNodes]
      .map((n) => {
        if (n.nodeType !== Node.TEXT_NODE) return n.localName === 'br' ? '\n' : n.textContent;
        if (keepSpaces) return n.data;
        return n.data.replace(keepLines ? /[ \t\r\f]+/g : /[ \t\r\n\f]+/g, ' ');
      })
      .join('');
    return keepSpaces
      ? text.replace(/\n$/, '')
      : text
          .replace(/ *\n */g, '\n')
          .replace(/ {2,}/g, ' ')
          .trim();
  }

  function mark(element, name) {
    document.querySelectorAll(`[${name}]`).forEach((e) => e.removeAttribute(name));
    if (element) element.setAttribute(name, '');
  }

  function select(element) {
    if (!element || element === document.documentElement || element === style) return;
    selected = element;
    mark(element, 'data-sw-selected');
    post({
      type: 'select',
      selector: selectorOf(element),
      tag: element.localName,
      text: (element.innerText ?? element.textContent ?? '').trim().slice(0, 300),
      html: cleanHtml(element),
      editable: isTextOnly(element),
    });
  }

  function stopEditing(save) {
    if (!editing) return;
    const { element, before } = editing;
    editing = null;
    element.removeAttribute('contenteditable');
    if (!save) {
      element.innerHTML = before;
      return post({ type: 'edit-cancelled' });
    }
    post({ type: 'text', selector: selectorOf(element), text: wordsOf(element) });
  }

  /** Only when the builder says so: an edit the person started there (button, or Enter here). */
  function startEditing(selector) {
    if (!selected || !isTextOnly(selected) || editing || selectorOf(selected) !== selector) return;
    editing = { element: selected, before: selected.innerHTML };
    selected.setAttribute('contenteditable', 'plaintext-only');
    focusOn(selected, true);
  }

  /** The focus on the edited element, its words selected (at the start, or if the caret left them). */
  function focusOn(element, start = false) {
    const selection = window.getSelection();
    const inside = selection?.anchorNode && element.contains(selection.anchorNode);
    element.focus();
    if (inside && !start) return;
    const range = document.createRange();
    range.selectNodeContents(element);
    selection?.removeAllRanges();
    selection?.addRange(range);
  }

  // A drawing is one picture to a person: a press on one of its shapes selects the whole <svg>.
  const pointed = (target) => target.closest('svg') ?? target;

  // The person's own input only: a site script's synthetic events (isTrusted false) do nothing.
  document.addEventListener('mouseover', (event) => {
    if (event.isTrusted && selecting && !editing && event.target instanceof Element)
      mark(pointed(event.target), 'data-sw-hover');
  });
  document.addEventListener(
    'click',
    (event) => {
      if (!event.isTrusted || !selecting || editing) return;
      event.preventDefault();
      event.stopPropagation();
      if (event.target instanceof Element) select(pointed(event.target));
    },
    true,
  );
  // Keyboard selection: arrows walk the page's elements, Enter asks the builder to edit the text,
  // Escape stops.
  document.addEventListener(
    'keydown',
    (event) => {
      if (!event.isTrusted) return;
      if (editing) {
        if (event.key === 'Escape') stopEditing(false);
        else if (event.key === 'Enter' && !event.shiftKey) {
          event.preventDefault();
          stopEditing(true);
        }
        return;
      }
      if (!selecting) return;
      const from = selected ?? document.body;
      const moves = {
        ArrowUp: from.parentElement !== document.documentElement ? from.parentElement : null,
        ArrowDown: from.firstElementChild,
        ArrowLeft: from.previousElementSibling,
        ArrowRight: from.nextElementSibling,
      };
      if (event.key in moves) {
        event.preventDefault();
        if (moves[event.key] && moves[event.key] !== style) {
          select(moves[event.key]);
          selected.scrollIntoView({ block: 'nearest' });
        }
      } else if (event.key === 'Enter' && selected && isTextOnly(selected)) {
        event.preventDefault();
        post({ type: 'edit-request', selector: selectorOf(selected) });
      }
    },
    true,
  );
  // The edit ends, saved, on Enter (above), a press elsewhere in the page, the focus going to
  // another element of the page (Tab), or the builder saying the person left this frame. The frame
  // itself losing the focus is no reason: Chromium tells a frame of focus changes late, so the
  // builder's button taking the focus from this frame (before the edit) can arrive here after the
  // edit began, followed by the focus the builder gave the frame for the edit. When the frame has
  // the focus again, the edited element takes it back.
  document.addEventListener(
    'pointerdown',
    (event) => event.isTrusted && editing && !editing.element.contains(event.target) && stopEditing(true),
    true,
  );
  document.addEventListener('focusout', (event) => {
    if (event.isTrusted && editing && event.target === editing.element && event.relatedTarget)
      stopEditing(true);
  });
  listen(
    window,
    'focus',
    () => editing && document.activeElement !== editing.element && focusOn(editing.element),
  );

  /** What the builder says, through the port: first this load's nonce, then what to do. */
  function command(data) {
    if (!data || data.sitewright !== 1 || typeof data.nonce !== 'string' || !data.nonce) return;
    if (data.type === 'connect' && !nonce) {
      nonce = data.nonce;
      return post({ type: 'ready' });
    }
    if (data.nonce !== nonce) return;
    const { type } = data;
    if (type === 'selecting') {
      selecting = Boolean(data.on);
      document.documentElement.toggleAttribute('data-sw-selecting', selecting);
      if (!selecting) mark(null, 'data-sw-hover');
    } else if (type === 'clear') {
      selected = null;
      mark(null, 'data-sw-selected');
    } else if (type === 'edit-text') {
      startEditing(data.selector);
    } else if (type === 'end-edit') {
      stopEditing(true);
    } else if (type === 'placeholders') {
      document.documentElement.toggleAttribute('data-sw-placeholders', Boolean(data.on));
    }
  }

  listen(port, 'message', (event) => command(dataOf(event)));
  portStart(port);
  // The builder's end of the channel, at once: this is the first thing the page says.
  window.parent.postMessage({ sitewright: 1, type: 'hello' }, '*', [port2]);
})();
