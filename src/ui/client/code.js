// The Code panel: the file tree, the editor (loaded on first use), saving a new version, and
// uploading files by drag-and-drop or the file picker (the files API's limits apply).
import { base, post, say } from './http.js';
import { acceptDrops, base64Of } from './files.js';

const $ = (id) => document.getElementById(id);
let editor = null;
let loading = null;

export function initCode({ projectId, onChange }) {
  const form = $('code-form');
  const save = async () => {
    const path = $('code-path').value.trim();
    const content = editor ? editor.value : $('code-content').value;
    try {
      const answer = await post(form.action, { path, content });
      say(answer.notice);
      addToTree(projectId, answer.file.path);
      onChange();
    } catch (error) {
      say(error.message, 'error');
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });
  $('code-content').addEventListener('keydown', (event) => {
    if (event.key === 's' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  });
  $('tree').addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-file]') : null;
    if (!link) return;
    event.preventDefault();
    void open(projectId, link.dataset.file);
  });
  // Files dropped on the tree or on the drop zone below it are uploaded.
  acceptDrops([$('tree'), $('drop')], $('drop'), (files) => void upload(projectId, files, onChange));
  $('upload').addEventListener(
    'change',
    (event) =>
      void upload(projectId, [...event.target.files], onChange).then(() => (event.target.value = '')),
  );
  return { show: () => ensureEditor(save) };
}

async function ensureEditor(save) {
  const textarea = $('code-content');
  if (editor || !$('code-path') || $('code-path').type !== 'hidden') return;
  loading ??= import('./editor.js').then(({ createEditor }) => {
    editor = createEditor(textarea, $('code-path').value, save);
  });
  await loading;
}

async function open(projectId, path) {
  const response = await fetch(`${base()}/file?path=${encodeURIComponent(path)}`, {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) return say(`Could not open ${path}`, 'error');
  const { file } = await response.json();
  for (const link of $('tree').querySelectorAll('a[data-file]'))
    link.toggleAttribute('aria-current', link.dataset.file === path);
  if (file.encoding !== 'utf8')
    return say(`${path} is a binary file (${file.content_type}); it cannot be edited here.`);
  const pathInput = $('code-path');
  if (pathInput.type !== 'hidden') {
    // The "new file" form becomes the editor of this file.
    pathInput.type = 'hidden';
    document.querySelector('label[for="code-path"]').remove();
    const label = document.querySelector('label[for="code-content"]');
    label.className = 'code-label';
    $('code-form').querySelector('button[type=submit]').textContent = 'Save';
  }
  pathInput.value = path;
  document.querySelector('label[for="code-content"]').textContent = path;
  $('code-content').value = file.content;
  if (editor) editor.open(path, file.content);
  else await ensureEditor();
  history.replaceState(null, '', `?tab=code&file=${encodeURIComponent(path)}`);
}

function addToTree(projectId, path) {
  const tree = $('tree');
  if (tree.querySelector(`a[data-file="${CSS.escape(path)}"]`)) return;
  tree.querySelector('li.muted')?.remove();
  const item = document.createElement('li');
  const link = Object.assign(document.createElement('a'), {
    href: `?tab=code&file=${encodeURIComponent(path)}`,
    textContent: path,
  });
  link.dataset.file = path;
  item.append(link);
  tree.append(item);
}

async function upload(projectId, files, onChange) {
  for (const file of files) {
    const path = file.type.startsWith('image/') ? `images/${file.name}` : file.name;
    try {
      const answer = await post(`${base()}/files`, {
        path,
        content: await base64Of(file),
        encoding: 'base64',
      });
      addToTree(projectId, answer.file.path);
      say(answer.notice);
    } catch (error) {
      say(`${file.name}: ${error.message}`, 'error');
    }
  }
  onChange();
}
