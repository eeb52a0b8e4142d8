import type { ElementContent } from 'hast';
import type { Text } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { linesToPhrasing } from './build.js';

/** Map text, with each soft line break as `<br>` (see `linesToPhrasing`). */
export function textHandler(_state: State, node: Text): ElementContent[] {
  return linesToPhrasing(node.value);
}
