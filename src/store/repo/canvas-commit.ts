/**
 * The store's commits (docs/store.md "Writes"): the subject `<op> <node>: <reason>` (or
 * `<op>: <reason>`), then one paragraph of `Canvas-*` trailers written by the store itself.
 */

/**
 * The operations recorded in `Canvas-Op`. An approved proposal is recorded as the edit it
 * replays (insert, replace, remove, move) with `Canvas-Proposal`, `Canvas-Proposed-By` and
 * `Canvas-Proposed-Why` (the proposer's reason; the subject carries the approver's), so a
 * node's history reads the same whoever applied it (docs/roles.md "Proposals").
 */
export type CanvasOp = 'create' | 'insert' | 'replace' | 'remove' | 'move' | 'freeze' | 'abandon' | 'grant' | 'revoke' | 'propose' | 'reject';

/**
 * The ops that change the canvas document and name one node (docs/store.md, "Commits"): the ones
 * a base is checked against and a proposal may hold. Written once; the others touch no document.
 */
export const DOC_OPS: ReadonlySet<string> = new Set<CanvasOp>(['insert', 'replace', 'remove', 'move']);

/** Every trailer key, in the order the store writes them. */
export const TRAILER_ORDER = [
  'Canvas-Op',
  'Canvas-Ledger',
  'Canvas-Node',
  'Canvas-Author',
  'Canvas-Base',
  'Canvas-Previous',
  'Canvas-From',
  'Canvas-To',
  'Canvas-Grant',
  'Canvas-Proposal',
  'Canvas-Proposal-Node',
  'Canvas-Proposed-By',
  'Canvas-Proposed-Why',
  'Canvas-Idempotency-Key',
  'Canvas-Request',
] as const;

/** A trailer key. */
export type TrailerKey = (typeof TRAILER_ORDER)[number];

/** A parsed commit object. */
export interface CanvasCommit {
  sha: string;
  tree: string;
  parents: string[];
  /** The git author line's name (the Canvas-Author text for store commits). */
  authorName: string;
  /** Author time, seconds since the epoch. */
  time: number;
  subject: string;
  /** The whole message. */
  message: string;
  /** Trailers of the last paragraph, by key (first value). */
  trailers: Partial<Record<string, string>>;
  /** The op, ledger and node, when this is a store commit. */
  op?: CanvasOp;
  ledger?: string;
  node?: string;
  /** The reason: the subject after `<op> <node>: `. */
  reason: string;
}

/**
 * Format a store commit message.
 *
 * @param op - the operation
 * @param node - the node named in the subject, or null
 * @param reason - the checked reason
 * @param trailers - the trailers (written in {@link TRAILER_ORDER})
 * @returns the message, ending in a line feed
 */
export function formatCommitMessage(op: CanvasOp, node: string | null, reason: string, trailers: Partial<Record<TrailerKey, string>>): string {
  const subject = node ? `${op} ${node}: ${reason}` : `${op}: ${reason}`;
  const lines = TRAILER_ORDER.filter((k) => trailers[k] !== undefined).map((k) => `${k}: ${trailers[k]}`);
  return `${subject}\n\n${lines.join('\n')}\n`;
}

const OPS = new Set<string>(['create', 'insert', 'replace', 'remove', 'move', 'freeze', 'abandon', 'grant', 'revoke', 'propose', 'reject']);

/**
 * Parse a raw commit object (as `git cat-file commit` prints it).
 *
 * @param sha - the commit's sha
 * @param raw - its bytes
 * @returns headers, subject, trailers and, for a store commit, op, ledger, node and reason
 */
export function parseCommit(sha: string, raw: Buffer | string): CanvasCommit {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let authorName = '';
  let time = 0;
  for (const line of head.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('author ')) {
      const m = /^author (.*) <[^>]*> (\d+) [+-]\d{4}$/.exec(line);
      authorName = m?.[1] ?? '';
      time = Number(m?.[2] ?? 0);
    }
  }
  const paragraphs = message.replace(/\n+$/, '').split('\n\n');
  const subject = paragraphs[0]?.split('\n')[0] ?? '';
  const trailers: Partial<Record<string, string>> = {};
  if (paragraphs.length > 1) {
    const last = paragraphs[paragraphs.length - 1]!.split('\n');
    if (last.every((l) => /^[A-Za-z0-9-]+: /.test(l))) {
      for (const l of last) {
        const i = l.indexOf(': ');
        const key = l.slice(0, i);
        if (trailers[key] === undefined) trailers[key] = l.slice(i + 2);
      }
    }
  }
  const commit: CanvasCommit = { sha, tree, parents, authorName, time, subject, message, trailers, reason: subject };
  const op = trailers['Canvas-Op'];
  if (op && OPS.has(op)) {
    commit.op = op as CanvasOp;
    const ledger = trailers['Canvas-Ledger'];
    if (ledger !== undefined) commit.ledger = ledger;
    const node = trailers['Canvas-Node'];
    if (node !== undefined) commit.node = node;
    const prefix = node !== undefined && subject.startsWith(`${op} ${node}: `) ? `${op} ${node}: ` : `${op}: `;
    const subjectNode = trailers['Canvas-Proposal-Node'];
    const alt = subjectNode !== undefined ? `${op} ${subjectNode}: ` : null;
    if (subject.startsWith(prefix)) commit.reason = subject.slice(prefix.length);
    else if (alt && subject.startsWith(alt)) commit.reason = subject.slice(alt.length);
  }
  return commit;
}

/** The who of a `Canvas-Author` trailer (`who[ | step:S][ | run:R]`): its first part; empty when there is none. */
export function whoOf(author: string | undefined): string {
  return (author ?? '').split('|')[0]!.trim();
}

/**
 * A commit's text in the form {@link parseCommit} reads, rebuilt from fields `git log` printed:
 * the tree (`-` when not asked for), the parents (space-separated), the author's name and time
 * (Unix seconds; the email and zone are not kept), then the message.
 */
export function commitText(tree: string | undefined, parents: string | undefined, name: string | undefined, time: string | undefined, message: string): string {
  return `tree ${tree}\n${(parents ?? '')
    .split(' ')
    .filter(Boolean)
    .map((p) => `parent ${p}\n`)
    .join('')}author ${name} <> ${time} +0000\n\n${message}`;
}
