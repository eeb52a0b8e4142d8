import type { ElementContent } from 'hast';
import type { ImageReference, LinkReference } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import type { State } from 'mdast-util-to-hast';
import { text } from './build.js';
import { imageTo } from './image.js';
import { linkTo } from './link.js';

function suffix(node: LinkReference | ImageReference): string {
  if (node.referenceType === 'full') return `[${node.label ?? node.identifier}]`;
  return node.referenceType === 'collapsed' ? '[]' : '';
}

/** Map `[label][ref]` through its definition, like a link; an undefined reference stays text. */
export function linkReference(state: State, node: LinkReference): ElementContent[] {
  const definition = state.definitionById.get(node.identifier.toUpperCase());
  const children = state.all(node);
  if (!definition) return [text('['), ...children, text(`]${suffix(node)}`)];
  return linkTo(definition.url, children, mdastToString(node));
}

/** Map `![alt][ref]` through its definition, like an image; an undefined reference stays text. */
export function imageReference(state: State, node: ImageReference): ElementContent[] {
  const definition = state.definitionById.get(node.identifier.toUpperCase());
  if (!definition) return [text(`![${node.alt ?? ''}]${suffix(node)}`)];
  return imageTo(definition.url, node.alt ?? '');
}
