// Every node's reasons on the page (docs/projections.md, "Why is this here?"): the snapshot's
// history of each node equals `canvas history` for it, the page lists exactly those commits in a
// details element opened from the node's id, and the cache the histories are folded into is never
// an authority.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element } from 'hast';
import { describe, expect, it } from 'vitest';
import { indexNodes } from '../../../src/model/index-nodes.js';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { createCanvas, freezeCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { nodeHistory } from '../../../src/store/read/node-history.js';
import { insertNode, moveNode, removeNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import { approveProposal } from '../../../src/store/write/decide-proposal.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { renderComment } from '../../../src/render/comment/render-comment.js';
import { renderPrompt } from '../../../src/render/text/render-prompt.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';
import { byId, classes, elements, parsePage, textOf } from '../page-claims.js';
import { pageOf } from '../page-of.js';

function applied(o: Outcome): { revision: string; node: string } {
  if (o.outcome !== 'applied' || o.node === null) throw new Error(`not applied: ${JSON.stringify(o)}`);
  return { revision: o.revision, node: o.node };
}

/** A canvas whose nodes were inserted, replaced, moved across sections, proposed and approved. */
async function storied(): Promise<{ ws: Workspace; early: string }> {
  const ws = tempWorkspace();
  const ledger = 'why';
  const c = await createCanvas(ws, { ledger, why: 'the reasons on the page', author: AUTHOR });
  if (c.outcome !== 'applied') throw new Error('create');
  const w = { ledger, author: AUTHOR };
  const s = applied(await insertNode(ws, { ...w, into: 'root', payload: { section: 'Decided' }, base: c.revision, why: 'a place for what is settled' }));
  const t = applied(await insertNode(ws, { ...w, into: 'root', payload: { text: 'Retry three times.' }, base: s.revision, why: 'noted while reading' }));
  const early = t.revision;
  let r = applied(await replaceNode(ws, { ...w, node: t.node, payload: { text: 'Retry five times.' }, base: t.revision, why: 'measured: three is not enough' }));
  const gone = applied(await insertNode(ws, { ...w, after: t.node, payload: { text: 'Scratch.' }, base: r.revision, why: 'a scratch note' }));
  r = applied(await removeNode(ws, { ...w, node: gone.node, base: gone.revision, why: 'the scratch note said nothing' }));
  const grant = await grantRole(ws, { ledger, who: 'cam', role: 'commenter', why: 'cam reviews', author: AUTHOR });
  if (grant.outcome !== 'applied') throw new Error('grant');
  const p = await replaceNode(ws, { ledger, node: t.node, payload: { text: 'Retry five times, then give up.' }, base: grant.revision, why: 'say what happens after', author: 'cam | step:review' });
  if (p.outcome !== 'proposed') throw new Error('propose');
  r = applied(await approveProposal(ws, { ledger, proposal: p.proposalId, why: 'agreed: the end matters', author: AUTHOR }));
  r = applied(await moveNode(ws, { ...w, node: t.node, into: s.node, base: r.revision, why: 'settled, so it goes with the decisions' }));
  applied(await insertNode(ws, { ...w, into: s.node, payload: { question: 'Five or six?' }, base: r.revision, why: 'nobody measured six' }));
  await freezeCanvas(ws, { ledger, why: 'done for now', author: AUTHOR });
  return { ws, early };
}

/** The `details.why` directly inside a node's element. */
function reasonsOf(el: Element): Element[] {
  return el.children.filter((c): c is Element => c.type === 'element' && c.tagName === 'details' && classes(c).includes('why'));
}

describe("every node's reasons (Why is this here?)", () => {
  it('shows a node without history (a snapshot not read through the store) with its id as a link to itself', async () => {
    const { ws } = await storied();
    const snapshot = await readSnapshot(ws, { ledger: 'why' });
    const tree = parsePage(await pageOf({ ...snapshot, history: {} }));
    for (const id of indexNodes(snapshot.canvas).keys()) {
      const node = byId(tree, id)!;
      expect(reasonsOf(node), id).toHaveLength(0);
      const tag = node.children.find((c): c is Element => c.type === 'element')!;
      expect([tag.tagName, classes(tag), tag.properties.href, textOf(tag)], id).toEqual(['a', ['nid'], `#${id}`, id]);
    }
  });

  it('lists, for every node, exactly what canvas history prints for it, on the page without a script', async () => {
    const { ws } = await storied();
    const snapshot = await readSnapshot(ws, { ledger: 'why' });
    const ids = [...indexNodes(snapshot.canvas).keys()];
    expect(ids).toHaveLength(3);
    expect(Object.keys(snapshot.history).sort()).toEqual([...ids].sort());
    const tree = parsePage(await pageOf(snapshot));
    for (const id of ids) {
      const history = await nodeHistory(ws, { ledger: 'why', node: id });
      expect(snapshot.history[id], id).toEqual(history);
      const node = byId(tree, id)!;
      const details = reasonsOf(node);
      expect(details, id).toHaveLength(1);
      // The node's id is the control: the first thing in the node, the summary of its reasons.
      expect(
        node.children.find((c) => c.type === 'element'),
        id,
      ).toBe(details[0]);
      const summary = details[0]!.children.find((c): c is Element => c.type === 'element')!;
      expect(summary.tagName).toBe('summary');
      expect(textOf(summary)).toBe(id);
      const items = elements(details[0]!)
        .filter((e) => e.el.tagName === 'li')
        .map((e) => e.el);
      expect(items, id).toHaveLength(history.length);
      items.forEach((li, i) => {
        const h = history[i]!;
        expect(textOf(li)).toBe(
          `${h.op} by ${h.author}, ${h.date.slice(0, 10)} ${h.date.slice(11, 16)} UTC: ${h.reason}${h.proposedBy ? ` (proposed by ${h.proposedBy}: ${h.proposedWhy})` : ''} ${h.commit.slice(0, 7)}`,
        );
        // The reasons are quoted as written, each its own element, apart from the facts around them.
        expect(
          elements(li)
            .filter((e) => e.el.tagName === 'q')
            .map((e) => textOf(e.el)),
        ).toEqual(h.proposedBy ? [h.reason, h.proposedWhy] : [h.reason]);
      });
    }
    const moved = Object.values(snapshot.history).find((h) => h.length === 4)!;
    expect(moved.map((h) => h.op)).toEqual(['insert', 'replace', 'replace', 'move']);
    expect(moved[2]).toMatchObject({ author: AUTHOR, reason: 'agreed: the end matters', proposedBy: 'cam | step:review', proposedWhy: 'say what happens after' });
  });

  it('leaves the comment and the prompt as they were', async () => {
    const { ws } = await storied();
    const snapshot = await readSnapshot(ws, { ledger: 'why' });
    const without = { ...snapshot, history: {} };
    expect(renderComment(snapshot)).toBe(renderComment(without));
    expect(renderPrompt(snapshot)).toBe(renderPrompt(without));
  });

  it('shows an earlier revision with the reasons up to it only', async () => {
    const { ws, early } = await storied();
    const snapshot = await readSnapshot(ws, { ledger: 'why', at: early });
    for (const [id, list] of Object.entries(snapshot.history)) {
      expect(list.length, id).toBe(1);
      expect(list[0]!.op).toBe('insert');
    }
  });

  it('folds the commits after the cached revision, and ignores a cache from off the chain', async () => {
    const { ws } = await storied();
    const first = await readSnapshot(ws, { ledger: 'why' });
    const path = join(ws.repo, '.git', 'canvas-cache', 'history', 'why.json');
    expect(JSON.parse(readFileSync(path, 'utf8')).revision).toBe(first.revision);
    const question = [...indexNodes(first.canvas)].find(([, e]) => e.node.type === 'question')![0];
    const r = applied(await replaceNode(ws, { ledger: 'why', node: question, payload: { question: 'Five or six? Six was measured.' }, base: first.revision, why: 'six measured: no better', author: AUTHOR }));
    const second = await readSnapshot(ws, { ledger: 'why' });
    expect(second.revision).toBe(r.revision);
    for (const id of Object.keys(second.history)) expect(second.history[id]).toEqual(await nodeHistory(ws, { ledger: 'why', node: id }));
    // A cache naming a revision this chain never had is not folded onto.
    writeFileSync(
      path,
      JSON.stringify({ revision: 'f'.repeat(40), nodes: [[question, [{ commit: 'f'.repeat(40), op: 'insert', node: question, author: 'mallory', reason: 'forged', date: '2026-01-01T00:00:00.000Z' }]]] }),
    );
    const third = await readSnapshot(ws, { ledger: 'why' });
    expect(third.history).toEqual(second.history);
  });
});
