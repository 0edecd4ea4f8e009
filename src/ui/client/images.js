// Replace image: a picture selected in the preview (an <img>, or a generated site's picture
// placeholder) can show one of the project's images, or a new one chosen or dropped here, with
// the alt text the person writes. Posted to {base}/replace-image, which makes a new version (the
// preview then reloads like after any edit).
import { base, post, say } from './http.js';
import { refresh } from './preview.js';
import { acceptDrops, base64Of } from './files.js';

const $ = (id) => document.getElementById(id);
/** The selected element (from preview.js), and a file chosen or dropped to upload. */
let selected = null;
let upload = null;

/** An <img>, or an element that holds a generated site's picture slot. */
const isPicture = (selection) =>
  selection.tag === 'img' || /^<[a-z][^>]*\sdata-sw-picture=/i.test(selection.html ?? '');

const altOf = (html) =>
  new DOMParser().parseFromString(html, 'text/html').body.firstElementChild?.getAttribute('alt') ?? '';

export function initImages() {
  const form = $('image-form');
  const button = $('replace-image');
  if (!form || !button) return;
  document.addEventListener('sitewright:selected', (event) => {
    selected = event.detail && isPicture(event.detail) ? event.detail : null;
    button.hidden = !selected;
    if (!selected) close();
    else if (!form.hidden) fill();
  });
  button.addEventListener('click', () => (form.hidden ? open() : close()));
  $('image-cancel').addEventListener('click', () => {
    close();
    button.focus();
  });
  $('image-upload').addEventListener('change', (event) => choose(event.target.files?.[0]));
  acceptDrops([$('image-drop')], $('image-drop'), (files) => choose(files[0]));
  // Choosing one of the site's pictures sets an upload aside.
  form.addEventListener('change', (event) => {
    if (event.target.name === 'image') forgetUpload();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void replace(form);
  });
}

function fill() {
  $('image-file').value = selected.file;
  $('image-selector').value = selected.selector;
  $('image-alt').value = altOf(selected.html);
}

function open() {
  fill();
  $('image-form').hidden = false;
  $('replace-image').setAttribute('aria-expanded', 'true');
  ($('image-form').querySelector('input[name=image]') ?? $('image-upload')).focus();
}

function close() {
  $('image-form').hidden = true;
  $('replace-image').setAttribute('aria-expanded', 'false');
  forgetUpload();
}

function choose(file) {
  if (!file) return;
  upload = file;
  for (const radio of document.querySelectorAll('#image-choices input[name=image]')) radio.checked = false;
  $('image-upload-hint').textContent = `${file.name} is uploaded into images/ when you replace the image.`;
}

function forgetUpload() {
  upload = null;
  $('image-upload').value = '';
  $('image-upload-hint').textContent = 'JPEG, PNG, WebP, AVIF, GIF or SVG; it is saved in images/.';
}

async function replace(form) {
  const chosen = form.querySelector('input[name=image]:checked')?.value;
  if (!upload && !chosen) return say('Choose one of the pictures, or upload one.', 'error');
  const submit = form.querySelector('button[type=submit]');
  submit.disabled = true;
  try {
    const fields = {
      file: $('image-file').value,
      selector: $('image-selector').value,
      alt: $('image-alt').value,
      ...(upload ? { upload_name: upload.name, upload_content: await base64Of(upload) } : { image: chosen }),
    };
    const answer = await post(`${base()}/replace-image`, fields);
    if (upload) addChoice(answer.image);
    say(answer.notice);
    close();
    $('replace-image').focus();
    await refresh();
  } catch (error) {
    say(error.message, 'error');
  } finally {
    submit.disabled = false;
  }
}

/** A picture uploaded here becomes one of the choices. */
function addChoice(path) {
  const list = $('image-choices');
  if ([...list.querySelectorAll('input')].some((input) => input.value === path)) return;
  const item = document.createElement('li');
  const label = document.createElement('label');
  const radio = Object.assign(document.createElement('input'), { type: 'radio', name: 'image', value: path });
  label.append(radio, ' ');
  if (!/\.svg$/i.test(path)) {
    const thumb = Object.assign(document.createElement('img'), {
      src: `${base()}/image?path=${encodeURIComponent(path)}&thumb=1`,
      alt: '',
      width: 120,
      height: 80,
    });
    label.append(thumb, ' ');
  }
  label.append(Object.assign(document.createElement('span'), { textContent: path }));
  item.append(label);
  list.append(item);
  $('image-none').hidden = true;
}
