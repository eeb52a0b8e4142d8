// The form of a figure: its kind, caption and source, with a preview the server draws.
import { el } from './dom.js';
import { field, textArea, textInput } from './fields.js';
import type { FormNodeOf, NodeForm } from './forms.js';
import { postJson } from './wire.js';

/** What `/_preview` answers: the drawing, or why it cannot be drawn. */
interface Preview {
  svg?: string;
  error?: { code: string; message: string };
}

/** The form of a figure starting from `node` (null for a new one). */
export function figureForm(node: FormNodeOf<'figure'> | null): NodeForm {
  const kind = el(
    'select',
    {},
    ['diagram', 'mermaid', 'svg', 'excalidraw'].map((k) => el('option', { value: k, text: k })),
  );
  kind.value = node?.kind ?? 'diagram';
  const cap = textInput(node?.caption);
  const src = textArea(node?.kind === 'svg' ? (node.svgSource ?? '') : (node?.source ?? ''), 8);
  const preview = el('div', { class: 'live-preview', 'aria-live': 'polite', 'aria-label': 'Preview' });
  let asked = 0;
  // Drawn by the server with the page's own drawers (a diagram laid out, an svg sanitized);
  // a Mermaid source is shown as text, as the page shows it before its module draws it.
  const show = async () => {
    const mine = ++asked;
    const r = await postJson<Preview>('/_preview', { node: { type: 'figure', kind: kind.value, source: src.value } }).catch(() => null);
    if (mine !== asked) return;
    if (r?.svg) {
      const svg = new DOMParser().parseFromString(r.svg, 'image/svg+xml').documentElement;
      preview.replaceChildren(svg.nodeName === 'svg' ? document.adoptNode(svg) : el('p', { text: 'The drawing could not be shown.' }));
    } else if (r?.error) {
      preview.replaceChildren(el('p', { class: 'live-problem', text: `Cannot draw it (${r.error.code}): ${r.error.message}` }));
    } else {
      preview.replaceChildren(el('pre', { text: src.value }));
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void show(), 250);
  };
  src.addEventListener('input', later);
  kind.addEventListener('change', later);
  void show();
  return {
    fields: [field('Kind', kind), field('Caption', cap), field('Source', src), el('p', { class: 'live-hint', text: 'Preview:' }), preview],
    value: () => ({ type: 'figure', kind: kind.value, caption: cap.value === '' ? undefined : cap.value, source: src.value }),
  };
}
