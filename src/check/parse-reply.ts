import { z } from 'zod';
import { CanvasError } from '../model/canvas-error.js';
import { checkReason } from '../model/check-reason.js';
import type { IndexedNode } from '../model/index-nodes.js';
import { MAX_QUESTION } from './check-prompt.js';

/** One contradiction as the model reported it, validated against the canvas. */
export interface Contradiction {
  /** The nodes involved, distinct, in document order. */
  nodes: string[];
  /** The model's question: one line within the reason rules, at most 300 code points. */
  question: string;
  /** What the model says each node says (reported, never written), made printable. */
  evidence: string;
}

/** An entry of the reply that was not used, and why. */
export interface DroppedEntry {
  /** Its position in the reply's `contradictions`, from 0. */
  entry: number;
  /** Why: `unknown-node`, `question-node`, `one-node`, `many-nodes`, `question`, `duplicate`, `shape`. */
  rule: 'unknown-node' | 'question-node' | 'one-node' | 'many-nodes' | 'question' | 'duplicate' | 'shape';
  /** What was wrong, in words. */
  why: string;
  /** The ids it named, as given. */
  nodes?: string[];
}

/** A reply read and validated: what may be asked, and what was set aside. */
export interface ParsedReply {
  contradictions: Contradiction[];
  /** Entries set aside without refusing the reply: naming a question node, one node only, repeated. */
  skipped: DroppedEntry[];
}

/** The most nodes one contradiction may name (so its question and reason stay within their limits). */
const MAX_NODES = 8;

const Entry = z.object({
  nodes: z.array(z.string()),
  question: z.string(),
  evidence: z.string().optional(),
});
const Reply = z.object({ contradictions: z.array(z.unknown()) });

/** The JSON object in a reply: the whole text, or inside a Markdown fence, or from its first `{` to its last `}`; reasoning in `<think>` left out. */
function jsonOf(text: string): unknown {
  const body = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(body);
  const candidates = [body, fenced?.[1] ?? '', body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)];
  for (const c of candidates) {
    if (c.trim() === '') continue;
    try {
      return JSON.parse(c);
    } catch {
      // The next reading.
    }
  }
  return undefined;
}

/** Evidence made printable: control characters and line breaks become spaces, at most 1000 code points. */
function printable(text: string): string {
  return [...text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ')].slice(0, 1000).join('');
}

/**
 * Read and validate a model's reply (docs/coherence.md "What is checked before anything is written"): one JSON object
 * `{"contradictions":[{nodes, question, evidence}]}`. Every id must be a node of the canvas at the
 * revision checked, and every question one line within the reason rules (at most 300 code points):
 * an entry that breaks either refuses the whole reply, so nothing from it is written. Entries that
 * name a question node, fewer than two or more than eight distinct nodes, or the same nodes as an
 * earlier entry are set aside and reported.
 *
 * @param text - the reply's text
 * @param index - the canvas's nodes by id (document order)
 * @returns the contradictions, nodes in document order, and the entries set aside
 * @throws CanvasError `CHECK_BAD_REPLY` (not JSON, not that shape, a bad question),
 *   `CHECK_UNKNOWN_NODES` (an id that is not in the canvas); `data.dropped` lists every entry refused
 */
export function parseReply(text: string, index: ReadonlyMap<string, IndexedNode>): ParsedReply {
  const json = jsonOf(text);
  const reply = Reply.safeParse(json);
  if (!reply.success) {
    throw new CanvasError(
      'CHECK_BAD_REPLY',
      json === undefined ? 'the model did not answer with JSON' : 'the model answered JSON without a "contradictions" list',
      'run the check again; if it keeps happening, use a model that follows instructions or a server with structured output',
      { reply: printable(text).slice(0, 300) },
    );
  }
  const contradictions: Contradiction[] = [];
  const skipped: DroppedEntry[] = [];
  const dropped: DroppedEntry[] = [];
  const seen = new Set<string>();
  reply.data.contradictions.forEach((raw, entry) => {
    const e = Entry.safeParse(raw);
    if (!e.success) {
      dropped.push({ entry, rule: 'shape', why: 'not an object with a "nodes" list of ids and a "question" string' });
      return;
    }
    const given = e.data.nodes;
    const unknown = given.filter((id) => !index.has(id));
    if (unknown.length > 0) {
      dropped.push({
        entry,
        rule: 'unknown-node',
        why: `${unknown.map((id) => JSON.stringify(printable(id).slice(0, 40))).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a node of the canvas`,
        nodes: given.map((id) => printable(id).slice(0, 40)),
      });
      return;
    }
    let question: string;
    try {
      question = checkReason(e.data.question);
      const length = [...question].length;
      if (length > MAX_QUESTION) throw new CanvasError('BAD_REASON', `the question is ${length} code points long; the limit is ${MAX_QUESTION}`, '');
    } catch (err) {
      dropped.push({ entry, rule: 'question', why: `the question is not one line within the reason rules: ${(err as Error).message}`, nodes: given });
      return;
    }
    const nodes = [...new Set(given)].sort((a, b) => index.get(a)!.order - index.get(b)!.order);
    const asks = nodes.filter((id) => index.get(id)!.node.type === 'question');
    if (asks.length > 0) {
      skipped.push({ entry, rule: 'question-node', why: `${asks.join(', ')} ${asks.length === 1 ? 'is a question' : 'are questions'}: a question claims nothing`, nodes });
      return;
    }
    if (nodes.length < 2) {
      skipped.push({ entry, rule: 'one-node', why: 'a contradiction is between two or more nodes', nodes });
      return;
    }
    if (nodes.length > MAX_NODES) {
      skipped.push({ entry, rule: 'many-nodes', why: `${nodes.length} nodes: a contradiction the checker asks about names at most ${MAX_NODES}`, nodes });
      return;
    }
    const key = nodes.join(' ');
    if (seen.has(key)) {
      skipped.push({ entry, rule: 'duplicate', why: 'an earlier entry names the same nodes', nodes });
      return;
    }
    seen.add(key);
    contradictions.push({ nodes, question, evidence: printable(e.data.evidence ?? '') });
  });
  if (dropped.length > 0) {
    const unknown = dropped.some((d) => d.rule === 'unknown-node');
    throw new CanvasError(
      unknown ? 'CHECK_UNKNOWN_NODES' : 'CHECK_BAD_REPLY',
      `the model's reply was refused, so nothing was written: ${dropped.map((d) => `entry ${d.entry + 1}: ${d.why}`).join('; ')}`,
      unknown
        ? 'the model named nodes that do not exist at the revision checked; run the check again, or use a model that follows the ids it is given'
        : 'run the check again; if it keeps happening, use a model that follows instructions or a server with structured output',
      { dropped, valid: contradictions.length },
    );
  }
  return { contradictions, skipped };
}
