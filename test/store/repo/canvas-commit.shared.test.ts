// The store's commit message (docs/store.md): a subject `<op> <node>: <reason>` (or `<op>: <reason>`),
// a blank line, and the trailers in one fixed order whatever order they were given in, read back
// the same by the store and by git itself. That the commit bytes are `git commit-tree`'s is
// tested in test/store/git/write-object.shared.test.ts.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatCommitMessage, parseCommit, TRAILER_ORDER, type TrailerKey } from '../../../src/store/repo/canvas-commit.js';

const SHA = 'a'.repeat(40);
const TREE = 'b'.repeat(40);

/** Every trailer, given in reverse order. */
const ALL = Object.fromEntries([...TRAILER_ORDER].reverse().map((k, i) => [k, `value ${i}`])) as Record<TrailerKey, string>;

describe('the store commit message', () => {
  it('writes the subject, a blank line, then the trailers in the fixed order, ending in a line feed', () => {
    const m = formatCommitMessage('replace', 'ab12', 'a clearer option', {
      'Canvas-Base': 'c'.repeat(40),
      'Canvas-Op': 'replace',
      'Canvas-Author': 'leo | by-hand',
      'Canvas-Ledger': 't1',
      'Canvas-Node': 'ab12',
    });
    expect(m).toBe(`replace ab12: a clearer option\n\nCanvas-Op: replace\nCanvas-Ledger: t1\nCanvas-Node: ab12\nCanvas-Author: leo | by-hand\nCanvas-Base: ${'c'.repeat(40)}\n`);
  });

  it('names no node in the subject when there is none, and leaves out the trailers not given', () => {
    expect(formatCommitMessage('create', null, 'a canvas', { 'Canvas-Op': 'create', 'Canvas-Ledger': 't1' })).toBe('create: a canvas\n\nCanvas-Op: create\nCanvas-Ledger: t1\n');
  });

  it('orders every trailer as TRAILER_ORDER, and git reads the same trailers in the same order', () => {
    const m = formatCommitMessage('propose', 'ab12', 'why not', ALL);
    const keys = m
      .split('\n\n')[1]!
      .trimEnd()
      .split('\n')
      .map((l) => l.slice(0, l.indexOf(':')));
    expect(keys).toEqual([...TRAILER_ORDER]);
    const parsed = execFileSync('git', ['interpret-trailers', '--parse'], { input: m, encoding: 'utf8' });
    expect(parsed).toBe(TRAILER_ORDER.map((k) => `${k}: ${ALL[k]}\n`).join(''));
  });

  it('reads back what it wrote: op, ledger, node, reason and trailers', () => {
    const message = formatCommitMessage('move', 'ab12', 'closer to its section', {
      'Canvas-Op': 'move',
      'Canvas-Ledger': 't1',
      'Canvas-Node': 'ab12',
      'Canvas-Author': 'leo | by-hand',
      'Canvas-From': 'root',
      'Canvas-To': 's1',
    });
    const raw = `tree ${TREE}\nparent ${SHA}\nauthor leo | by-hand <canvas@localhost> 1700000000 +0000\ncommitter canvas <canvas@localhost> 1700000000 +0000\n\n${message}`;
    const c = parseCommit(SHA, raw);
    expect(c).toMatchObject({ sha: SHA, tree: TREE, parents: [SHA], authorName: 'leo | by-hand', time: 1700000000, op: 'move', ledger: 't1', node: 'ab12', reason: 'closer to its section', message });
    expect(c.trailers).toEqual({ 'Canvas-Op': 'move', 'Canvas-Ledger': 't1', 'Canvas-Node': 'ab12', 'Canvas-Author': 'leo | by-hand', 'Canvas-From': 'root', 'Canvas-To': 's1' });
  });
});
