import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Desk } from '../../src/model/desk.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { baseOf, tempWorkspace } from '../helpers/workspace.js';

// canvas desk and the desk at the top of the built index (docs/site.md, "The desk"): every open
// question across the canvases, oldest first, with who asked and when; every open proposal with
// its change and its reason; nothing answered, approved or rejected.

let ws: Workspace;
const at = (date: string) => ({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
const ids = { zetaQ: '', alphaQ: '', answered: '', text: '', replace: '', remove: '' };

async function write(args: string[], env: Record<string, string> = {}): Promise<{ node?: string; proposalId?: string; revision: string }> {
  const ledger = args[1]!;
  const base = baseOf((await runMain(ws, ['read', ledger])).stdout);
  const r = await runMain(ws, [...args, '--base', base, '--json'], env);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { node?: string; proposalId?: string; revision: string };
}

async function desk(): Promise<Desk> {
  const r = await runMain(ws, ['desk', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Desk;
}

beforeAll(async () => {
  ws = tempWorkspace('canvas-desk-');
  const jan = at('2026-01-05T09:00:00Z');
  for (const ledger of ['alpha', 'zeta']) {
    expect((await runMain(ws, ['open', ledger, '--problem', `The ${ledger} problem.`, '--expected-value', 'Done.', '--why', 'opened'], jan)).code).toBe(0);
  }
  expect((await runMain(ws, ['grant', 'alpha', 'planner', 'editor', '--why', 'the planner asks'])).code).toBe(0);
  // zeta's question is older than alpha's: the desk lists it first.
  ids.zetaQ = (await write(['insert', 'zeta', '--into', 'root', '--question', 'Which proxy?', '--why', 'unknown'], at('2026-02-01T10:00:00Z'))).node!;
  ids.alphaQ = (await write(['insert', 'alpha', '--into', 'root', '--question', 'Which app server?', '--why', 'unknown'], { ...at('2026-03-01T10:00:00Z'), CANVAS_AUTHOR: 'planner | step:plan' })).node!;
  ids.answered = (await write(['insert', 'alpha', '--into', 'root', '--question', 'Is it slow?', '--answered', '--why', 'measured'], at('2026-01-10T10:00:00Z'))).node!;
  expect((await runMain(ws, ['grant', 'alpha', 'cam', 'commenter', '--why', 'cam reviews'])).code).toBe(0);
  const text = /<text id="([a-z0-9]+)"[^>]*>The alpha problem\.<\/text>/.exec((await runMain(ws, ['read', 'alpha'])).stdout)![1]!;
  ids.text = text;
  ids.replace = (await write(['replace', 'alpha', text, '--text', 'The alpha problem, measured.', '--why', 'clearer'], { CANVAS_AUTHOR: 'cam' })).proposalId!;
  ids.remove = (await write(['remove', 'alpha', ids.alphaQ, '--why', 'not a question'], { CANVAS_AUTHOR: 'cam' })).proposalId!;
});

describe('canvas desk', () => {
  it('lists every open question oldest first, with who asked and when, and none answered', async () => {
    const d = await desk();
    expect(d.questions.map((q) => [q.ledger, q.node, q.text, q.askedBy, q.askedAt])).toEqual([
      ['zeta', ids.zetaQ, 'Which proxy?', 'leo | by-hand', '2026-02-01T10:00:00.000Z'],
      ['alpha', ids.alphaQ, 'Which app server?', 'planner | step:plan', '2026-03-01T10:00:00.000Z'],
    ]);
    const alpha = baseOf((await runMain(ws, ['read', 'alpha'])).stdout);
    expect(d.questions[1]!.revision).toBe(alpha);
  });

  it('lists every open proposal with its change as the node now and as proposed, and its reason', async () => {
    const d = await desk();
    expect(d.proposals.map((p) => p.id).sort()).toEqual([ids.replace, ids.remove].sort());
    const replace = d.proposals.find((p) => p.id === ids.replace)!;
    expect(replace).toMatchObject({
      ledger: 'alpha',
      proposedBy: 'cam',
      why: 'clearer',
      op: 'replace',
      node: ids.text,
      before: '<text>The alpha problem.</text>\n',
      after: '<text>The alpha problem, measured.</text>\n',
    });
    expect(d.proposals.find((p) => p.id === ids.remove)).toMatchObject({ op: 'remove', node: ids.alphaQ, before: '<question>Which app server?</question>\n', after: null });
  });

  it('prints the same for a terminal, with the commands that decide each proposal', async () => {
    const r = await runMain(ws, ['desk']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^2 open questions, oldest first:\n {2}zeta /);
    expect(r.stdout).toContain(`  alpha ${ids.replace}: replace ${ids.text} by cam: clearer\n    - <text>The alpha problem.</text>\n    + <text>The alpha problem, measured.</text>\n`);
    expect(r.stdout).toContain(`canvas approve alpha ${ids.replace} --why "..."   or   canvas reject alpha ${ids.replace} --why "..."`);
  });

  it('opens the built index, before the canvases, with links to each question', async () => {
    const out = join(tempDir('canvas-desk-site-'), 'site');
    expect((await runMain(ws, ['build', '--out', out, '--quiet'])).code).toBe(0);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const desk = html.indexOf('<section id="desk"');
    expect(desk).toBeGreaterThan(0);
    expect(desk).toBeLessThan(html.indexOf('<table class="canvases"'));
    expect(html.indexOf(`href="zeta/index.html#${ids.zetaQ}"`)).toBeLessThan(html.indexOf(`href="alpha/index.html#${ids.alphaQ}"`));
    expect(html).toContain(`data-proposal="${ids.replace}"`);
    expect(html).not.toContain('Is it slow?');
  });

  it('drops what was decided: an approved proposal and an answered question', async () => {
    expect((await runMain(ws, ['approve', 'alpha', ids.replace, '--why', 'agreed'])).code).toBe(0);
    await write(['replace', 'zeta', ids.zetaQ, '--question', 'Which proxy?', '--answered', '--why', 'the edge proxy']);
    const d = await desk();
    expect(d.proposals.map((p) => p.id)).toEqual([ids.remove]);
    expect(d.questions.map((q) => q.node)).toEqual([ids.alphaQ]);
  });

  it('says nothing waits in an empty workspace', async () => {
    const empty = tempWorkspace('canvas-desk-empty-');
    const r = await runMain(empty, ['desk']);
    expect([r.code, r.stdout]).toEqual([0, 'No open question.\nNo proposal waiting for a decision.\n']);
    expect(JSON.parse((await runMain(empty, ['desk', '--json'])).stdout)).toEqual({ questions: [], proposals: [] });
  });
});
