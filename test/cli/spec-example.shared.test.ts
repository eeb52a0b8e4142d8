import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { baseOf, tempWorkspace } from '../helpers/workspace.js';

// The example a canvas exists for: an options table replaced by a text whose reason says why
// (docs/store.md, "Writes"); `canvas history` prints both edits oldest first, also after a move.
describe('a decision settling, end to end', () => {
  it('an options table settles into a decision, and the node history shows both reasons, across a move', async () => {
    const ws = tempWorkspace();
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const r = await runMain(ws, args, env);
      expect(r.code, r.stderr).toBe(0);
      return r;
    };
    await run(['open', 'ship-the-flag', '--problem', 'The flag ships dark and nobody can turn it on.', '--expected-value', 'Ops can flip it per tenant.', '--why', 'task opened']);
    let base = baseOf((await run(['read', 'ship-the-flag'])).stdout);
    const section = JSON.parse((await run(['insert', 'ship-the-flag', '--into', 'root', '--section', 'Decisions', '--base', base, '--why', 'a place for what we decide', '--json'])).stdout).node as string;
    base = baseOf((await run(['read', 'ship-the-flag'])).stdout);
    const table = '<table><row><cell>option</cell><cell>cost</cell></row><row><cell>A: a config key</cell><cell>none</cell></row><row><cell>B: a DB column</cell><cell>a migration</cell></row></table>';
    const inserted = JSON.parse(
      (
        await run(['insert', 'ship-the-flag', '--after', section, '--xml', table, '--base', base, '--why', 'the options this decision is between', '--json'], {
          CANVAS_AUTHOR: 'leo | by-hand',
        })
      ).stdout,
    );
    const b7 = inserted.node as string;
    base = inserted.revision;
    const replaced = await run(
      ['replace', 'ship-the-flag', b7, '--text', 'A: a config key per tenant.', '--base', base, '--why', 'chose A over B: B needs a migration we are not paying for this cycle', '--json'],
      { CANVAS_AUTHOR: 'leo | step:implement | run:ship-the-flag-3' },
    );
    const r1 = JSON.parse(replaced.stdout);
    expect(r1).toMatchObject({ outcome: 'applied', node: b7 });
    const read = (await run(['read', 'ship-the-flag', '--id', b7])).stdout;
    expect(read).toContain(`<text id="${b7}" v="2">A: a config key per tenant.</text>`);

    const history = (await run(['history', 'ship-the-flag', b7])).stdout;
    const [c1, c2] = [inserted.revision as string, r1.revision as string];
    expect(history).toBe(
      `Canvas-Node: ${b7}\n\n` +
        `Canvas-Commit: ${c1}\nCanvas-Author: leo | by-hand\ninsert: the options this decision is between\n\n` +
        `Canvas-Commit: ${c2}\nCanvas-Author: leo | step:implement | run:ship-the-flag-3\nreplace: chose A over B: B needs a migration we are not paying for this cycle\n`,
    );

    // A move keeps the id: the history spans it.
    const moved = JSON.parse((await run(['move', 'ship-the-flag', b7, '--into', section, '--base', r1.revision, '--why', 'the decision belongs under Decisions', '--json'])).stdout);
    const after = (await run(['history', 'ship-the-flag', b7])).stdout;
    expect(after.startsWith(history)).toBe(true);
    expect(after).toContain(`\nCanvas-Commit: ${moved.revision}\nCanvas-Author: leo | by-hand\nmove: the decision belongs under Decisions\n`);
    expect((await run(['verify'])).stdout).toContain('ok');
  });

  it('history matches the trailer for equality: a reason quoting a trailer is not an edit of that node', async () => {
    const ws = tempWorkspace();
    await runMain(ws, ['create', 'eq', '--why', 'equality']);
    let base = baseOf((await runMain(ws, ['read', 'eq'])).stdout);
    const a = JSON.parse((await runMain(ws, ['insert', 'eq', '--into', 'root', '--text', 'a', '--base', base, '--why', 'first', '--json'])).stdout);
    const b = JSON.parse((await runMain(ws, ['insert', 'eq', '--into', 'root', '--text', 'b', '--base', a.revision, '--why', `quoting Canvas-Node: ${a.node} in a reason`, '--json'])).stdout);
    base = b.revision;
    const h = await runMain(ws, ['history', 'eq', a.node, '--json']);
    const commits = JSON.parse(h.stdout).commits as Array<{ commit: string }>;
    expect(commits.map((c) => c.commit)).toEqual([a.revision]);
    // A prefix of an id names nothing.
    const prefix = await runMain(ws, ['history', 'eq', a.node.slice(0, 3), '--json']);
    expect(prefix.code).toBe(2);
    expect(JSON.parse(prefix.stdout).error.code).toBe('NODE_NOT_FOUND');
    void base;
  });
});
