import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseCanvas } from '../../../src/model/parse-canvas.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { guardOneNode } from '../../../src/store/write/guard-one-node.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { AUTHOR, runCli, tempWorkspace } from '../../helpers/workspace.js';

const doc = (body: string) => parseCanvas(`<canvas ledger="g" schema="2">${body}</canvas>`);
const A = '<text id="aa" v="1">a</text>';
const B = '<text id="bb" v="1">b</text>';
const S = '<section id="ss" v="1" title="S"><text id="cc" v="1">c</text></section>';

describe('the one-node guard', () => {
  it('refuses a write that changes a node other than the one it names: TWO_NODES naming it', () => {
    const before = doc(A + B);
    const after = doc('<text id="aa" v="2">a2</text><text id="bb" v="2">b2</text>');
    expect(() => guardOneNode(before, after, { op: 'replace', node: 'aa' })).toThrow(expect.objectContaining({ code: 'TWO_NODES', data: expect.objectContaining({ others: ['bb'] }) }));
  });

  it('refuses a reorder of other nodes, a second insert, a removed neighbour, a changed parent', () => {
    const before = doc(A + B + S);
    const cases: Array<[string, Parameters<typeof guardOneNode>[2]]> = [
      [B + A + S, { op: 'replace', node: 'zz' }],
      [`${A}<text id="nn" v="1">n</text><text id="mm" v="1">m</text>${B}${S}`, { op: 'insert', node: 'nn' }],
      [`<text id="aa" v="2">x</text>${S}`, { op: 'replace', node: 'aa' }],
      [`${A}${B}<section id="ss" v="1" title="S"></section><text id="cc" v="1">c</text>`, { op: 'replace', node: 'ss' }],
      [`${A}${B}<section id="ss" v="1" title="S"><text id="cc" v="1">c</text></section>`, { op: 'create', node: null }],
    ];
    for (const [body, claim] of cases) {
      expect(() => guardOneNode(before, doc(body), claim), body).toThrow(expect.objectContaining({ code: 'TWO_NODES' }));
    }
  });

  it('accepts exactly the named change for each op, and a section travelling with its subtree', () => {
    const before = doc(A + B + S);
    guardOneNode(before, doc(`<text id="aa" v="2">a2</text>${B}${S}`), { op: 'replace', node: 'aa' });
    guardOneNode(before, doc(`${A}<text id="nn" v="1">n</text>${B}${S}`), { op: 'insert', node: 'nn' });
    guardOneNode(before, doc(`${B}${S}`), { op: 'remove', node: 'aa' });
    guardOneNode(before, doc(`<section id="ss" v="2" title="S"><text id="cc" v="1">c</text></section>${A}${B}`), { op: 'move', node: 'ss' });
    guardOneNode(before, before, { op: 'freeze', node: null });
  });

  it('refuses a section removed with its children, and a replace or move that changes nothing', () => {
    const before = doc(A + S);
    expect(() => guardOneNode(before, doc(A), { op: 'remove', node: 'ss' })).toThrow(expect.objectContaining({ code: 'TWO_NODES' }));
    expect(() => guardOneNode(before, doc(`<text id="aa" v="2">a</text>${S}`), { op: 'replace', node: 'aa' })).toThrow(expect.objectContaining({ code: 'NO_CHANGE' }));
  });

  it('canvas verify reports a commit made outside the tool that touched two nodes (exit 4)', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 'g', why: 'guard', author: AUTHOR });
    let base = (await readCanvas(ws, { ledger: 'g' })).revision;
    for (const t of ['one', 'two']) {
      const o = await insertNode(ws, { ledger: 'g', into: 'root', payload: { text: t }, base, why: t, author: AUTHOR });
      base = (o as { revision: string }).revision;
    }
    expect((await runCli(ws, ['verify'])).code).toBe(0);
    // A person rewrites both texts and commits by hand, with the store's own trailers copied.
    const r = await readCanvas(ws, { ledger: 'g' });
    const ids = [...r.xml.matchAll(/id="([a-z0-9]+)"/g)].map((m) => m[1]!);
    const xml = r.xml.replace('v="1">one<', 'v="2">ONE<').replace('v="1">two<', 'v="2">TWO<');
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], xml);
    const tree = git(['mktree'], `100644 blob ${blob}\tg.xml\n`);
    const message = `replace ${ids[0]}: both at once\n\nCanvas-Op: replace\nCanvas-Ledger: g\nCanvas-Node: ${ids[0]}\nCanvas-Author: ${AUTHOR}\nCanvas-Base: ${r.revision}\nCanvas-Previous: ${r.revision}\n`;
    const commit = git(['-c', `user.name=${AUTHOR}`, '-c', 'user.email=', 'commit-tree', tree, '-p', r.revision, '-F', '-'], message);
    git(['update-ref', 'refs/heads/main', commit]);
    git(['update-ref', `refs/canvas/g`, commit]);
    const v = await runCli(ws, ['verify', '--json']);
    expect(v.code).toBe(4);
    const report = JSON.parse(v.stdout);
    expect(report.violations).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'guard', code: 'TWO_NODES', commit })]));
  });
});
