import { describeEdit } from '../render/describe-edit.js';
import { shortSha } from '../render/short-sha.js';
import type { CanvasEdges, EdgeLinkOut } from '../store/read/canvas-edges.js';

// What `canvas edges` prints for a reader (docs/links.md, "Edges"): its own module, loaded when
// edges runs, so that the CLI's entry loads no renderer.

/** What a link to a canvas names, and why it points at nothing when it does. */
function pointsAt(l: Pick<EdgeLinkOut, 'href' | 'target' | 'problem'>): string {
  const why = l.problem === 'no-canvas' ? ' (no such canvas)' : l.problem === 'no-node' ? ' (no such node)' : l.problem === 'malformed' ? ' (malformed: not canvas:<ledger>[#<node>])' : '';
  if (!l.target) return `${l.href}${why}`;
  return `canvas ${l.target.ledger}${l.target.node === null ? '' : `, node ${l.target.node}`}${why}`;
}

function heading(title: string, n: number): string {
  return `${title} (${n}):${n === 0 ? ' none' : ''}`;
}

/**
 * The edges as text: the links out, the links in, the actors and the watchers, one line each.
 *
 * @param e - what `canvasEdges` returned
 * @returns the text, ending in a line feed
 */
export function edgesLines(e: CanvasEdges): string {
  const lines = [`canvas ${e.ledger} at ${e.revision}`, heading('links to', e.linksTo.length)];
  for (const l of e.linksTo) lines.push(`  ${l.node}  ${l.kind === 'canvas' ? pointsAt(l) : l.href}  ${l.label}`);
  lines.push(heading('linked from', e.linkedFrom.length));
  for (const l of e.linkedFrom) lines.push(`  ${l.ledger} ${l.node}  -> ${l.target.node === null ? 'the canvas' : `node ${l.target.node}`}${l.problem ? ' (no such node)' : ''}  ${l.label}`);
  lines.push(heading('acted on by', e.actors.length));
  for (const a of e.actors) lines.push(`  ${a.who}  ${a.acts} ${a.acts === 1 ? 'act' : 'acts'}, last: ${describeEdit(a.last)}: ${a.last.reason} ${shortSha(a.last.commit)}`);
  lines.push(heading('watched by', e.watchers.length));
  for (const w of e.watchers) lines.push(`  ${w.who}${w.since ? `  since ${w.since}` : ''}`);
  return `${lines.join('\n')}\n`;
}
