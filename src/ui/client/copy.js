// Copy buttons beside the DNS records' names and values (the publish panel's custom domains).
// Without the script the values are plain text to select; with it each gets a button that copies
// it (the Clipboard API where the page is a secure context, else the selection and the copy
// command) and says so in the status line.
import { say } from './http.js';

export function addCopyButtons(root = document) {
  for (const code of root.querySelectorAll('code[data-copy]')) {
    if (code.parentElement?.classList.contains('dns-copy')) continue;
    const wrap = document.createElement('span');
    wrap.className = 'dns-copy';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button small secondary';
    const label = document.createElement('span');
    label.textContent = 'Copy';
    const what = document.createElement('span');
    what.className = 'visually-hidden';
    what.textContent = ` ${code.dataset.copy}`;
    button.append(label, what);
    button.addEventListener('click', () => copy(code, label));
    code.replaceWith(wrap);
    wrap.append(code, button);
  }
}

async function copy(code, label) {
  const text = code.textContent;
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      copied = true;
    }
  } catch {
    // refused (permissions): the selection below
  }
  const range = document.createRange();
  range.selectNodeContents(code);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  if (!copied) {
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
  }
  if (!copied) return say('The text is selected: press Ctrl+C (⌘C on a Mac) to copy it.');
  label.textContent = 'Copied';
  say(`Copied ${code.dataset.copy}.`);
  setTimeout(() => (label.textContent = 'Copy'), 2000);
}
