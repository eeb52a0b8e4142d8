import type { ElementContent } from 'hast';
import type { Nodes } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import type { State } from 'mdast-util-to-hast';
import { linesToPhrasing } from './build.js';

/** Map a node of a type no handler knows to its plain text, so nothing unknown passes through. */
export function unknown(_state: State, node: Nodes): ElementContent[] {
  return linesToPhrasing(mdastToString(node));
}
