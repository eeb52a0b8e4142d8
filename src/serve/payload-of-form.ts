import { escapeAttribute } from '../model/escape-xml.js';
import type { PayloadInput } from '../model/payload-from-input.js';
import { serializeNode } from '../model/serialize-node.js';
import type { FormNode } from './edit-body.js';

/**
 * Turn a node as a form gives it into the payload the store's verbs take (docs/serve.md,
 * "Editing"): one XML fragment, serialized by the model's own serializer, so the page never
 * writes XML. An `svg` figure's source is markup and goes in as it is written; the store checks
 * it as it checks every SVG payload. Nothing here judges the content: the store does.
 *
 * @param node - the form's node
 * @returns `{xml}` for `insertNode` and `replaceNode`
 */
export function payloadOfForm(node: FormNode): PayloadInput {
  if (node.type === 'figure' && node.kind === 'svg') {
    const caption = node.caption === undefined || node.caption === '' ? '' : ` caption="${escapeAttribute(node.caption)}"`;
    return { xml: `<figure kind="svg"${caption}>${node.source}</figure>` };
  }
  if (node.type === 'figure') {
    const { caption, ...rest } = node;
    return { xml: serializeNode(caption === undefined || caption === '' ? rest : { ...rest, caption }, { payload: true }) };
  }
  return { xml: serializeNode(node.type === 'section' ? { ...node, children: [] } : node, { payload: true }) };
}
