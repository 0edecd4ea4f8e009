// The code editor (CodeMirror 6), loaded only when the Code panel is opened. Tab moves focus out
// of the editor as everywhere else on the page (indentation comes with Enter and the brackets).
import { EditorView, basicSetup } from 'codemirror';
import { Compartment, EditorState } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { html } from '@codemirror/lang-html';
import { css } from '@codemirror/lang-css';
import { javascript } from '@codemirror/lang-javascript';

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
  const view = new EditorView({
    parent: Object.assign(document.createElement('div'), { className: 'code-editor' }),
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        basicSetup,
        language.of(languageFor(path)),
        label.of(EditorView.contentAttributes.of({ 'aria-label': `Code of ${path}` })),
        keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (onSave(), true) }]),
        EditorView.lineWrapping,
      ],
    }),
  });
  textarea.hidden = true;
  textarea.after(view.dom.parentElement);
  return {
    get value() {
      return view.state.doc.toString();
    },
    open(newPath, content) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: content },
        effects: [language.reconfigure(languageFor(newPath)), label.reconfigure(EditorView.contentAttributes.of({ 'aria-label': `Code of ${newPath}` }))],
      });
    },
    focus: () => view.focus(),
  };
}
