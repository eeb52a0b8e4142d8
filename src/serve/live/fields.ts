// The fields of the tab's forms, and the reason: the store's rule, given by the server, checked
// here before anything is sent.
import { el } from './dom.js';
import { live } from './state.js';

/** What is wrong with a reason, in words, or null when the store's rule takes it. */
export function reasonProblem(text: string): string | null {
  const rule = live.session?.reason;
  if (text.trim() === '') return 'A reason is required: one line that says why.';
  if (rule && new RegExp(rule.pattern, rule.flags).test(text)) return 'The reason must be one line, with no line break or control character.';
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) return 'The reason holds a broken character.';
  if (rule && [...text].length > rule.max) return `The reason is ${[...text].length} characters long; the limit is ${rule.max}.`;
  return null;
}

/**
 * The reason field: a one-row textarea, so a pasted line break stays in it and is refused by the
 * rule rather than dropped without a word (a text input strips it); Enter submits.
 */
export function reasonField(attrs: Record<string, string | boolean>): HTMLTextAreaElement {
  const t = el('textarea', { class: 'live-why', rows: 1, ...attrs });
  t.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      t.form?.requestSubmit();
    }
  });
  return t;
}

let uid = 0;

/** A labelled field around an input. */
export function field(label: string, input: HTMLElement): HTMLElement {
  const id = `live-f${++uid}`;
  input.id = id;
  return el('div', { class: 'live-field' }, [el('label', { for: id, text: label }), input]);
}

/** A textarea holding `value`. */
export function textArea(value: string | undefined, rows = 4): HTMLTextAreaElement {
  const t = el('textarea', { rows });
  t.value = value ?? '';
  return t;
}

/** A one-line text input holding `value`. */
export function textInput(value: string | undefined): HTMLInputElement {
  const t = el('input', { type: 'text' });
  t.value = value ?? '';
  return t;
}

/** A labelled checkbox. */
export function checkBox(label: string, checked: boolean | undefined): { box: HTMLInputElement; wrap: HTMLElement } {
  const id = `live-f${++uid}`;
  const box = el('input', { type: 'checkbox', id });
  box.checked = Boolean(checked);
  return { box, wrap: el('div', { class: 'live-field live-check' }, [box, el('label', { for: id, text: label })]) };
}
