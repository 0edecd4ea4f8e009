// The code editor (CodeMirror 6), loaded only when the Code panel is opened. Tab moves focus out
// of the editor as everywhere else on the page (indentation comes with Enter and the brackets).
//
// The editor lives in a shadow root. CodeMirror makes its stylesheet at run time; in a document
// it writes it into a <style> element, which the pages' CSP (style-src 'self') refuses. Unstyled,
// the text fell below a column of line numbers, and with its whitespace no longer `pre-wrap`
// Chromium typed doubled and trailing spaces as U+00A0, which were saved into the files. In a
// shadow root CodeMirror adopts a constructed stylesheet instead, which the CSP does not govern.
import { EditorView, basicSetup } from 'codemirror';
import { Compartment, EditorState } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { html } from '@codemirror/lang-html';
import { css } from '@codemirror/lang-css';
import { javascript } from '@codemirror/lang-javascript';

// The page's stylesheet does not reach into the shadow root: the editor's own rules come with it.
const layout = EditorView.theme({
  // It grows with its text and the panel scrolls: no second scrolling box inside it.
  '&': { flex: '1', minWidth: '0', minHeight: '18rem' },
  '.cm-scroller': { overflow: 'visible' },
  '&.cm-focused': { outline: '3px solid #7c8cf0', outlineOffset: '1px' },
  // The highlighting's green (#085) is just 4.5:1 on white: on the tinted active line it fell
  // short. The gutter still marks the line.
  '.cm-activeLine': { backgroundColor: 'transparent' },
});

const languageFor = (path) => {
  if (/\.html?$/i.test(path)) return html();
  if (/\.css$/i.test(path)) return css();
  if (/\.(m?js|json)$/i.test(path)) return javascript();
  return [];
};

/** Replaces the textarea with an editor; returns what the code panel needs of it. */
export function createEditor(textarea, path, onSave) {
  const language = new Compartment();
  const label = new Compartment();
  const host = Object.assign(document.createElement('div'), { className: 'code-editor' });
  const root = host.attachShadow({ mode: 'open' });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        basicSetup,
        layout,
        language.of(languageFor(path)),
        label.of(EditorView.contentAttributes.of({ 'aria-label': `Code of ${path}` })),
        keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (onSave(), true) }]),
        EditorView.lineWrapping,
      ],
    }),
  });
  textarea.hidden = true;
  textarea.after(host);
  return {
    get value() {
      return view.state.doc.toString();
    },
    open(newPath, content) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: content },
        effects: [
          language.reconfigure(languageFor(newPath)),
          label.reconfigure(EditorView.contentAttributes.of({ 'aria-label': `Code of ${newPath}` })),
        ],
      });
    },
    focus: () => view.focus(),
  };
}
