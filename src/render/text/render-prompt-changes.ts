import { indexNodes } from '../../model/index-nodes.js';
import type { Crossing, SnapshotEdit } from '../../model/snapshot.js';
import type { Canvas, CanvasNode, SectionNode } from '../../model/types.js';
import { describeEdit } from '../describe-edit.js';
import { isolateBidi } from '../isolate-bidi.js';
import { shortSha } from '../short-sha.js';
import { renderLines } from './render-lines.js';
import type { TextContext } from './text-context.js';

/** What changed in a canvas since a reader last saw it: what {@link renderPromptChanges} shows. */
export interface PromptChanges {
  ledger: string;
  /** The canvas's revision now: the one to write against. */
  revision: string;
  /** The revision the reader last saw. */
  since: string;
  /** The tree at `revision`. */
  canvas: Canvas;
  /** The commits to show, after `since`, newest first (at least one). */
  edits: readonly SnapshotEdit[];
}

/** The ops whose commit names the node it changed in the document. */
const NODE_OPS = new Set(['insert', 'replace', 'remove', 'move']);

/**
 * Render what changed in a canvas since a reader last saw it, in the prompt's words
 * (docs/projections.md, "What changed"): the revision to write against, the nodes the edits
 * changed as they are now (grouped under the section they sit in; a node no longer in the
 * canvas as removed), and the edits newest first with their reasons. What a harness hook adds
 * to a session's context when the canvas moved (docs/agents.md), instead of the whole prompt.
 *
 * @param changes - the canvas now, the revision seen, the edits after it (newest first)
 * @returns the text, ending in a line feed; the same input gives the same text
 * @throws CanvasError `SCHEMA` for a node type schema 2 does not have
 */
export function renderPromptChanges(changes: PromptChanges): string {
  const { ledger, revision, since, canvas, edits } = changes;
  const nodes = indexNodes(canvas);
  const ctx: TextContext = {
    crossings: new Map<string, Crossing>(),
    depth: 0,
    renderChildren: (children: readonly CanvasNode[], depth: number) => children.flatMap((child) => renderLines(child, { ...ctx, depth })),
  };
  const named = new Set(edits.filter((e) => e.node !== null && NODE_OPS.has(e.op)).map((e) => e.node!));
  // A node inside a changed section is shown with it: listed once, under its section.
  const within = (id: string): boolean => {
    for (let p = nodes.get(id)?.parent; p !== undefined && p !== 'root'; p = nodes.get(p)?.parent) if (named.has(p)) return true;
    return false;
  };
  const present = [...named].filter((id) => nodes.has(id) && !within(id)).sort((a, b) => nodes.get(a)!.order - nodes.get(b)!.order);
  const removed = [...named].filter((id) => !nodes.has(id));
  const out: string[] = [
    `Canvas-Base: ${revision}`,
    '',
    `The canvas of ledger ${ledger} changed since you last saw it (at ${shortSha(since)}): write against the revision above.`,
    'Only what changed is here; every other node is as you saw it.',
  ];
  if (present.length > 0 || removed.length > 0) {
    out.push('', 'Changed nodes, as they are now:');
    let place: string | null = null;
    for (const id of present) {
      const { node, parent } = nodes.get(id)!;
      if (parent !== place) {
        const section = parent === 'root' ? null : (nodes.get(parent)!.node as SectionNode);
        out.push(section ? `In [${section.id}] section “${isolateBidi(section.title)}”:` : 'At the top level:');
        place = parent;
      }
      out.push(...renderLines(node, { ...ctx, depth: 1 }));
    }
    if (removed.length > 0) out.push(`Removed: ${removed.map((id) => `[${id}]`).join(', ')}`);
  }
  out.push('', `Edits since (newest first, ${edits.length}):`);
  for (const e of edits) out.push(`- ${shortSha(e.commit)} ${describeEdit(e)}: ${isolateBidi(e.reason)}`);
  return `${out.join('\n')}\n`;
}
