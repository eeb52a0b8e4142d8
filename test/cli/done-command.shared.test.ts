import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { evidenceInReason } from '../../src/render/done/evidence-in-reason.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Outcome } from '../../src/store/repo/outcome.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, ROOT, tempWorkspace } from '../helpers/workspace.js';

const validate = new Ajv2020({ strict: true }).compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'done.schema.json'), 'utf8')));

function applied(o: Outcome): { revision: string; node: string | null; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o;
}

describe('the done artifact on the command line (docs/projections.md, "The done artifact")', () => {
  it('render --format done prints Markdown, --json the artifact; freeze --with-done records the freeze and prints the artifact of its revision', async () => {
    const ws = tempWorkspace();
    const o = applied(await openCanvas(ws, { ledger: 'ship', problem: 'Exports time out.', expectedValue: 'Exports finish in a minute.', why: 'opened', author: AUTHOR }));
    const q = applied(await insertNode(ws, { ledger: 'ship', after: o.nodes![1]!, payload: { question: 'Does the weekly job share it?' }, base: o.revision, why: 'doubt', author: AUTHOR }));
    applied(
      await insertNode(ws, {
        ledger: 'ship',
        after: q.node!,
        payload: { xml: '<link href="https://example.org/pull/41">the fix</link>' },
        base: q.revision,
        why: 'the fix is PR #41, see src/export.ts:88',
        author: AUTHOR,
      }),
    );

    const md = await runMain(ws, ['render', 'ship', '--format', 'done']);
    expect(md.code).toBe(0);
    expect(md.stdout.split('\n\n')[1]).toBe('**1 open question.** This work is not verified: the open questions are listed under Verification.');

    const json = await runMain(ws, ['render', 'ship', '--format', 'done', '--json']);
    const artifact = JSON.parse(json.stdout);
    expect(validate(artifact), JSON.stringify(validate.errors)).toBe(true);
    expect(artifact.evidence.map((e: { kind: string; value: string }) => `${e.kind} ${e.value}`)).toEqual(['link https://example.org/pull/41', 'pr PR #41', 'file-line src/export.ts:88']);

    const frozen = await runMain(ws, ['freeze', 'ship', '--why', 'done: shipped in 3f2a1b9', '--with-done', '--json']);
    expect(frozen.code).toBe(0);
    const out = JSON.parse(frozen.stdout);
    expect(out).toMatchObject({ outcome: 'applied', node: null });
    expect(out.done).toMatchObject({ revision: out.revision, ending: { kind: 'frozen', commit: out.revision, editedSince: false }, openQuestions: 1 });
    expect(out.done.evidence).toContainEqual({ kind: 'sha', value: '3f2a1b9', node: null, commit: out.revision });
    expect(validate(out.done)).toBe(true);

    const text = await runMain(ws, ['freeze', 'ship', '--why', 'again', '--with-done']);
    expect(text.stdout).toMatch(/^applied freeze\nCanvas-Base: [0-9a-f]{40}\n\n\*\*Done: ship\*\* at revision /);
  });

  it('finds pull requests, files and lines and shas in a reason, and nothing in plain words or numbers', () => {
    expect(evidenceInReason('done: PR #41 merged, 3f2a1b0 deployed; see src/a.ts:12-20 and https://github.com/o/r/pull/88')).toEqual([
      { kind: 'pr', value: 'PR #41' },
      { kind: 'sha', value: '3f2a1b0' },
      { kind: 'file-line', value: 'src/a.ts:12-20' },
      { kind: 'pr', value: '/pull/88' },
    ]);
    expect(evidenceInReason('the slowest export took 38 s, version 1.2.3:45, 10000000 rows, a decade of facade')).toEqual([]);
  });
});
