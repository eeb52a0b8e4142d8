// Make the example workspace (examples/workspace/) through the CLI verbs only, as a person and
// their agents would: several canvases about this project's own design decisions. A workspace
// holds its own git repository, so it is generated, never committed. Fixed dates make every sha
// and minted id the same on every machine.
//
//   node scripts/example-workspace.js [DIR]     (default examples/workspace; refuses to overwrite)
//
// The tests import makeExampleWorkspace and run the same verbs through the CLI's entry in
// process (docs/testing.md, "The CLI in process").
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Run one canvas command as a process of the built CLI, with extra environment; return its stdout. */
function spawnCanvas(env, args) {
  return execFileSync(process.execPath, [join(root, 'bin', 'canvas.js'), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
}

const LEO = 'leo | by-hand';
const AGENT = 'planner | step:design | run:canvas-1';

/**
 * Make the example workspace in `dir` through the CLI verbs.
 *
 * @param {string} dir - the workspace directory (absolute; made when absent)
 * @param {(env: Record<string, string>, args: string[]) => string | Promise<string>} run - runs one
 *   canvas command with extra environment (CANVAS_WORKSPACE, CANVAS_AUTHOR, the fixed git dates)
 *   and returns its stdout, throwing unless it exits 0: a process of the built CLI by default
 */
export async function makeExampleWorkspace(dir, run = spawnCanvas) {
  mkdirSync(dir, { recursive: true });
  const env = {
    CANVAS_WORKSPACE: dir,
    GIT_AUTHOR_DATE: '2026-11-02T09:00:00Z',
    GIT_COMMITTER_DATE: '2026-11-02T09:00:00Z',
    NO_COLOR: '1',
  };

  /** Run one canvas command as an author; return its JSON outcome (exit 0 expected). */
  async function canvas(author, args) {
    const out = await run({ ...env, CANVAS_AUTHOR: author }, [...args, '--json']);
    const result = JSON.parse(out);
    if (result.outcome && result.outcome !== 'applied') throw new Error(`${args.join(' ')}: ${out}`);
    return result;
  }

  /** A small writer for one canvas that keeps the base current, as a careful agent does. */
  function writer(ledger) {
    let base = null;
    let lastRoot = null;
    const w = {
      async open(problem, expected, why) {
        const r = await canvas(LEO, ['open', ledger, '--problem', problem, '--expected-value', expected, '--why', why]);
        base = (await canvas(LEO, ['grant', ledger, 'planner', 'editor', '--why', 'the planning agent writes here too'])).revision;
        lastRoot = r.nodes[1];
        return r.nodes;
      },
      async run(author, args) {
        const r = await canvas(author, [...args, '--base', base]);
        base = r.revision;
        return r.node;
      },
      /** A root-level section after the last one (or after the opening nodes). */
      async section(title, why, author = LEO) {
        lastRoot = await w.run(author, ['insert', ledger, '--after', lastRoot, '--section', title, '--why', why]);
        return lastRoot;
      },
      insert(where, payload, why, author = AGENT) {
        return w.run(author, ['insert', ledger, ...where, ...payload, '--why', why]);
      },
      replace(node, payload, why, author = LEO) {
        return w.run(author, ['replace', ledger, node, ...payload, '--why', why]);
      },
      move(node, where, why, author = LEO) {
        return w.run(author, ['move', ledger, node, ...where, '--why', why]);
      },
      async freeze(why) {
        base = (await canvas(LEO, ['freeze', ledger, '--why', why])).revision;
      },
    };
    return w;
  }

  /** The decision of the first canvas, which the last one links to. */
  let storeDecision = null;

  // 1. Where a canvas lives: an options table settles into a decision.
  {
    const w = writer('store-substrate');
    const [problem] = await w.open(
      "Decisions about a task live in a Basecamp thread, a transcript and an agent's memory, with no shared key.",
      'One small document per ledger row, edited one node at a time, every edit with its reason.',
      'the task that gave the canvas its store',
    );
    const options = await w.section('Options', 'a place to weigh where the canvas lives');
    const table = await w.insert(
      ['--into', options],
      [
        '--xml',
        '<table><row><cell>option</cell><cell>what it gives</cell><cell>what it costs</cell></row>' +
          '<row><cell>git repository, one commit per edit</cell><cell>history, blame, diff, a compare-and-swap on refs</cell><cell>a lock around each write</cell></row>' +
          "<row><cell>append-only record log</cell><cell>closer to the orchestrator's habits</cell><cell>rebuilding what git already does</cell></row>" +
          '<row><cell>a database</cell><cell>queries</cell><cell>a server, and no file a person can read</cell></row></table>',
      ],
      'the options this decision is between',
    );
    await w.replace(
      table,
      ['--text', 'A git repository: one canvas per file, one commit per edit, refs moved together in one transaction.'],
      'chose git over a record log: it already does history, diff and blame, and one-node commits give exact addressing',
    );
    storeDecision = table;
    const decided = await w.section('Decided', 'settled decisions get their own section');
    await w.move(table, ['--into', decided], 'the decision is settled, so it leaves Options for Decided');
    await w.insert(['--after', table], ['--question', 'Should housekeeping (git maintenance) run on a schedule instead of now and then?'], 'nobody decided this yet');
    const answered = await w.insert(['--after', table], ['--question', 'Is a whole-document write ever allowed?'], 'the question everyone asks first');
    await w.replace(
      answered,
      ['--xml', '<question answered="true">Is a whole-document write ever allowed? No: every write names one node, and the store refuses anything else.</question>'],
      'answered by the one-node guard',
    );
    await w.insert(['--after', problem], ['--xml', '<link href="https://git-scm.com/docs/git-update-ref">git update-ref: the compare-and-swap the store relies on</link>'], 'evidence for the choice');
    await w.insert(
      ['--into', decided],
      [
        '--xml',
        '<figure kind="diagram" caption="The write path">diagram 1\ndirection right\nnode read "canvas read"\nnode write "canvas replace --base"\nnode lock "repository lock"\nnode commit "one commit"\nread -> write "decide"\nwrite -> lock -> commit</figure>',
      ],
      'a picture of the write path for the page',
    );
    const ruled = await w.section('Ruled out', 'what we ruled out, and why');
    await w.insert(
      ['--into', ruled],
      ['--text', 'An append-only record log: closer to the house style, but it would rebuild history, diff and blame that git already has.'],
      'ruled out with the reason, so nobody proposes it again without one',
    );
  }

  // 2. The projections: one canvas, four one-way outputs.
  {
    const w = writer('projections');
    await w.open(
      'People and agents need the canvas where they already look: a page, a Basecamp comment, a prompt.',
      'Every projection is a one-way function of one revision; nothing is read back.',
      'how the canvas is shown',
    );
    const page = await w.section('The page', 'the standalone HTML page');
    await w.insert(['--into', page], ['--text', 'One standalone file: inline CSS, no external stylesheet, font or image; a question index; a strict Content-Security-Policy.'], 'what the page must be');
    const comment = await w.section('The comment', 'the Basecamp comment the ledger row carries');
    const misplaced = await w.insert(
      ['--into', page],
      ['--text', 'Block-level Markdown only: paragraphs and bullet lists, a table unfolded into bullets, no raw HTML.'],
      'a note on the comment, first written under the page',
    );
    await w.move(misplaced, ['--into', comment], 'this is about the comment, not the page');
    await w.insert(
      ['--after', misplaced],
      ['--xml', '<figure kind="mermaid" caption="One snapshot, four projections">flowchart LR\n  S[snapshot at one revision] --> P[page]\n  S --> C[comment]\n  S --> T[prompt]\n  S --> B[site]</figure>'],
      'the shape of the projections',
    );
    await w.insert(
      ['--into', page],
      [
        '--xml',
        '<figure kind="svg" caption="The question marker"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#f5b400"/><text x="20" y="27" font-size="20" text-anchor="middle">?</text></svg></figure>',
      ],
      'the marker every open question carries',
    );
    await w.insert(['--into', comment], ['--question', 'Should the comment carry the diagrams as links to the page?'], 'Basecamp cannot show the picture');
    await w.insert(['--after', comment], ['--xml', '<list ordered="true"><item>page</item><item>comment</item><item>prompt</item><item>site</item></list>'], 'the four projections in the order they were built');
  }

  // 3. Node identity: frozen when the work was done.
  {
    const w = writer('node-identity');
    const [, expected] = await w.open(
      'History attaches to the wrong text the first time a heading is renamed, when ids come from text.',
      'Ids are minted by the store, never reused, and survive replace and move.',
      'why ids are minted',
    );
    const rules = await w.section('Rules', 'the identity rules');
    await w.insert(
      ['--into', rules],
      ['--xml', '<list><item>insert mints an id and sets v=1</item><item>replace keeps the id, v+1</item><item>move keeps the content, v+1</item><item>remove never frees the id</item></list>'],
      'the rules in one list',
    );
    await w.insert(['--after', expected], ['--text', 'Split and merge have no verb: a split is inserts plus a replace, with the pointer in the reason.'], 'settled: no merge or split verb');
    await w.freeze('the identity rules shipped and the tests pin them');
  }

  // 4. Concurrency: still open.
  {
    const w = writer('concurrency');
    await w.open(
      'Many agents write at once; a five-minute-old read must not overwrite an edit made since.',
      'A write declares its base and is refused if its node moved; it is told what else changed.',
      'the staleness rule',
    );
    const s = await w.section('Staleness', 'how a stale base is handled');
    await w.insert(
      ['--into', s],
      ['--text', "A checked node touched since the base is a conflict (exit 3) with the node's diff and the reasons in between; other changes apply and are reported."],
      'the two branches',
    );
    await w.insert(['--into', s], ['--question', 'Should --require become the default for agents?'], 'open: strictness versus throughput');
    // Links between canvases (docs/links.md): to a node of another canvas, and to a canvas.
    const related = await w.section('Related canvases', 'what this rule stands on, one pointer each');
    const onStore = await w.insert(
      ['--into', related],
      ['--xml', `<link href="canvas:store-substrate#${storeDecision}">the store decision: one commit per edit, refs moved in one transaction</link>`],
      'the base rule is checked against the canvas chain this decision made',
    );
    await w.insert(['--after', onStore], ['--xml', '<link href="canvas:node-identity">how node ids are minted</link>'], 'a conflict names its node by the id this canvas settled');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = resolve(process.argv[2] ?? join(root, 'examples', 'workspace'));
  if (existsSync(join(dir, 'state', 'canvas'))) {
    console.error(`${dir} already holds a workspace; remove it to make it again`);
    process.exit(2);
  }
  await makeExampleWorkspace(dir);
  console.log(dir);
}
