// The builder's selection script, added to preview pages opened with ?edit=1. It runs inside the
// sandboxed preview (an opaque origin) and talks to the builder page that frames it by postMessage
// only: the builder turns selection on and off and asks for in-place text edits; this script
// reports the selected element (its page, a selector, tag, text and HTML) and the edited text.
// It never reads or sends anything else, and does nothing when the page is not framed.
(() => {
  if (window.parent === window) return;
  const FILE = document.currentScript?.getAttribute('data-sitewright-file') ?? 'index.html';
  const MARKS = ['data-sw-hover', 'data-sw-selected'];
  let selecting = false;
  let selected = null;
  let editing = null;

  const post = (message) => window.parent.postMessage({ sitewright: 1, file: FILE, ...message }, '*');

  const style = document.createElement('style');
  style.textContent = `
    [data-sw-selecting] * { cursor: crosshair !important; }
    [data-sw-hover] { outline: 2px dashed #6366f1 !important; outline-offset: 2px !important; }
    [data-sw-selected] { outline: 3px solid #4338ca !important; outline-offset: 2px !important; }
    [data-sw-placeholders] [data-placeholder] { outline: 2px dashed #d97706 !important; outline-offset: 2px !important; background-color: rgba(251, 191, 36, .18) !important; }
    [contenteditable][data-sw-selected] { outline-style: double !important; background-color: rgba(99, 102, 241, .08) !important; }`;
  document.head.appendChild(style);

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
    [...element.childNodes].every((n) => n.nodeType === Node.TEXT_NODE || (n.nodeType === Node.ELEMENT_NODE && n.localName === 'br')) &&
    element.textContent.trim() !== '';

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
    post({ type: 'text', selector: selectorOf(element), text: element.innerText.replace(/\n$/, '') });
  }

  function startEditing() {
    if (!selected || !isTextOnly(selected) || editing) return;
    editing = { element: selected, before: selected.innerHTML };
    selected.setAttribute('contenteditable', 'plaintext-only');
    selected.focus();
    const range = document.createRange();
    range.selectNodeContents(selected);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
  }

  document.addEventListener('mouseover', (event) => {
    if (selecting && !editing && event.target instanceof Element) mark(event.target, 'data-sw-hover');
  });
  document.addEventListener(
    'click',
    (event) => {
      if (!selecting || editing) return;
      event.preventDefault();
      event.stopPropagation();
      if (event.target instanceof Element) select(event.target);
    },
    true,
  );
  // Keyboard selection: arrows walk the page's elements, Enter edits the text, Escape stops.
  document.addEventListener(
    'keydown',
    (event) => {
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
      } else if (event.key === 'Enter') {
        event.preventDefault();
        startEditing();
      }
    },
    true,
  );
  document.addEventListener('focusout', () => editing && stopEditing(true));

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || !event.data || event.data.sitewright !== 1) return;
    const { type } = event.data;
    if (type === 'selecting') {
      selecting = Boolean(event.data.on);
      document.documentElement.toggleAttribute('data-sw-selecting', selecting);
      if (!selecting) mark(null, 'data-sw-hover');
    } else if (type === 'clear') {
      selected = null;
      mark(null, 'data-sw-selected');
    } else if (type === 'edit-text') {
      startEditing();
    } else if (type === 'placeholders') {
      document.documentElement.toggleAttribute('data-sw-placeholders', Boolean(event.data.on));
    }
  });

  post({ type: 'ready', title: document.title, placeholders: document.querySelectorAll('[data-placeholder]').length });
})();
