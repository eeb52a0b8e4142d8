// The edit forms, one per node type, in a table the compiler checks: a new node type without a
// form does not compile (the renderers' handler tables do the same, docs/architecture.md).
import type { NodeType } from '../../model/types.js';
import { el } from './dom.js';
import { figureForm } from './figure-form.js';
import { checkBox, field, textArea, textInput } from './fields.js';
import { tableForm } from './table-form.js';
import type { FormNode, NodeBody } from './wire.js';

/** A form's fields, and the node they say when sent. */
export interface NodeForm {
  fields: HTMLElement[];
  value(): NodeBody | null;
}

/** The node of one type, as a form starts from it. */
export type FormNodeOf<T extends NodeType> = Extract<FormNode, { type: T }>;

/** One form per node type: it starts from the node (null for a new one). */
const FORMS: { readonly [T in NodeType]: (node: FormNodeOf<T> | null) => NodeForm } = {
  text: (node) => {
    const t = textArea(node?.text);
    return { fields: [field('Text', t)], value: () => ({ type: 'text', text: t.value }) };
  },
  question: (node) => {
    const t = textArea(node?.text, 3);
    const a = checkBox('Answered', node?.answered);
    return { fields: [field('Question', t), a.wrap], value: () => ({ type: 'question', text: t.value, answered: a.box.checked }) };
  },
  section: (node) => {
    const t = textInput(node?.title);
    return { fields: [field('Section title', t)], value: () => ({ type: 'section', title: t.value }) };
  },
  list: (node) => {
    const t = textArea((node?.items ?? ['']).join('\n'), 5);
    const o = checkBox('Numbered', node?.ordered);
    return {
      fields: [field('Items, one per line', t), o.wrap],
      value: () => ({ type: 'list', items: t.value.split('\n').filter((s) => s.trim() !== ''), ordered: o.box.checked }),
    };
  },
  table: (node) =>
    tableForm(
      node?.rows ?? [
        ['', ''],
        ['', ''],
      ],
    ),
  link: (node) => {
    const h = textInput(node?.href);
    const l = textInput(node?.label);
    return { fields: [field('Address (http, https or mailto)', h), field('Label', l)], value: () => ({ type: 'link', href: h.value, label: l.value }) };
  },
  figure: (node) => figureForm(node),
};

const isNodeType = (type: string | undefined): type is NodeType => type !== undefined && Object.hasOwn(FORMS, type);

/**
 * The form for a node of `type`, starting from `node` (null for a new node).
 *
 * @param type - the node type; one the table does not know gets a form that says so and sends nothing
 * @param node - the node to start from, of that type, or null
 */
export function nodeForm(type: string | undefined, node: FormNode | null): NodeForm {
  if (!isNodeType(type)) return { fields: [el('p', { text: `No form for ${type}.` })], value: () => null };
  const make = FORMS[type] as (n: FormNode | null) => NodeForm;
  return make(node !== null && node.type === type ? node : null);
}
