import { CanvasError } from '../../model/canvas-error.js';
import type { Anchor } from '../../model/edit-tree.js';
import type { AnchorRequest } from './write-requests.js';

/**
 * Exactly one of `after` and `into` (docs/identity.md).
 *
 * @throws CanvasError `USAGE` when both or neither is given
 */
export function anchorOf(req: AnchorRequest, verb: string): Anchor {
  if ((req.after === undefined) === (req.into === undefined)) {
    throw new CanvasError('USAGE', `${verb} takes exactly one of --after <node> and --into <section|root>`, `use --after <node> for the next sibling, or --into <section-id|root> for the first child`);
  }
  return req.after !== undefined ? { after: req.after } : { into: req.into! };
}
