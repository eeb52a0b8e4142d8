// The evaluation corpus: small canvases written for the coherence check, each with the
// contradictions a careful reader finds in it (none, one or two), and near-misses that are not
// contradictions (a refinement, options side by side, something ruled out, a change over time, two
// different subjects). `standIn` is what the scripted stand-in answers instead of a model; where
// it is given, the script plays an imperfect model (a false alarm, a miss), so the scripted run
// exercises the arithmetic of precision and recall.
import type { CanvasNode } from '../../src/model/types.js';

/** One case of the corpus. */
export interface EvalCase {
  name: string;
  kind: 'planted' | 'none' | 'near-miss';
  nodes: CanvasNode[];
  /** The contradictions in it, each as the ids of its nodes. */
  expected: string[][];
  /** What the scripted stand-in reports (default: `expected`). */
  standIn?: string[][];
}

const text = (id: string, t: string): CanvasNode => ({ type: 'text', id, v: 1, text: t });
const ask = (id: string, t: string): CanvasNode => ({ type: 'question', id, v: 1, answered: false, text: t });
const list = (id: string, items: string[]): CanvasNode => ({ type: 'list', id, v: 1, ordered: false, items });
const table = (id: string, rows: string[][]): CanvasNode => ({ type: 'table', id, v: 1, rows });
const section = (id: string, title: string, children: CanvasNode[]): CanvasNode => ({ type: 'section', id, v: 1, title, children });

export const CORPUS: EvalCase[] = [
  {
    name: 'sync-against-queue',
    kind: 'planted',
    nodes: [
      text('n1', 'Writes are synchronous: the caller waits until the commit is on main.'),
      text('n2', 'The page is rebuilt from the canvas at each revision.'),
      text('n3', 'A queue absorbs write bursts, so a caller never waits for a commit.'),
    ],
    expected: [['n1', 'n3']],
  },
  {
    name: 'release-day',
    kind: 'planted',
    nodes: [text('n1', 'Releases go out every Friday afternoon.'), text('n2', 'The changelog is written by the person who merges.'), text('n3', 'Nothing is ever released on a Friday.')],
    expected: [['n1', 'n3']],
  },
  {
    name: 'two-contradictions',
    kind: 'planted',
    nodes: [
      section('s1', 'Storage', [text('n1', 'Everything is kept in SQLite, one database file per workspace.'), text('n2', 'There is no database: every record is a file in git.')]),
      section('s2', 'Access', [text('n3', 'The API is public: anyone with the URL may call it.'), text('n4', "Only the team's own services may call the API.")]),
    ],
    expected: [
      ['n1', 'n2'],
      ['n3', 'n4'],
    ],
    // The scripted model misses the second one.
    standIn: [['n1', 'n2']],
  },
  {
    name: 'timeout-value',
    kind: 'planted',
    nodes: [text('n1', 'A request to the model times out after 30 seconds.'), list('n2', ['retries: 3', 'back-off: doubling from 1 s']), text('n3', 'A request to the model times out after 5 seconds.')],
    expected: [['n1', 'n3']],
  },
  {
    name: 'owner',
    kind: 'planted',
    nodes: [text('n1', 'Ana owns the release and signs it off.'), text('n2', 'Ben owns the release; Ana only reviews the notes.')],
    expected: [['n1', 'n2']],
  },
  {
    name: 'node-version',
    kind: 'planted',
    nodes: [list('n1', ['Runs on Node 18 and later', 'Needs git 2.39']), text('n2', 'Node 20 is the oldest version supported; 18 is not.')],
    expected: [['n1', 'n2']],
  },
  {
    name: 'state-in-memory',
    kind: 'planted',
    nodes: [section('s1', 'Design', [text('n1', 'The service keeps no state between requests.')]), section('s2', 'Sessions', [text('n2', "Sessions live in the service's memory between requests.")])],
    expected: [['n1', 'n2']],
  },
  {
    name: 'ruled-out-then-used',
    kind: 'planted',
    nodes: [text('n1', 'Ruled out: Redis, because it adds a server to run.'), text('n2', 'Rate limits are counted in Redis.')],
    expected: [['n1', 'n2']],
  },
  {
    name: 'among-distractors',
    kind: 'planted',
    nodes: [
      text('n1', 'The site is built into site/ by canvas build.'),
      text('n2', 'Each canvas gets one page, one comment and one prompt.'),
      text('n3', 'The index page lists every canvas with its revision.'),
      text('n4', 'The site is built into public/, never into site/.'),
      text('n5', 'A build with no change writes nothing.'),
    ],
    expected: [['n1', 'n4']],
  },
  {
    name: 'freeze-date',
    kind: 'planted',
    nodes: [text('n1', 'The code freeze starts on 3 March.'), ask('q1', 'Who announces the freeze?'), text('n2', 'The code freeze starts on 10 March.')],
    expected: [['n1', 'n2']],
  },
  {
    name: 'table-against-text',
    kind: 'planted',
    nodes: [
      table('n1', [
        ['step', 'runs'],
        ['lint', 'on every push'],
        ['tests', 'on every push'],
      ]),
      text('n2', 'Tests run only nightly, never on a push.'),
    ],
    expected: [['n1', 'n2']],
  },
  {
    name: 'consistent',
    kind: 'none',
    nodes: [text('n1', 'Every edit is one commit with a reason.'), text('n2', 'A reason is one line.'), text('n3', 'The author is recorded with each commit.')],
    expected: [],
  },
  {
    name: 'consistent-sections',
    kind: 'none',
    nodes: [
      section('s1', 'Problem', [text('n1', 'Login times out under load.')]),
      section('s2', 'Decision', [text('n2', 'Raise the proxy idle timeout to 60 s.'), text('n3', 'Measure again at peak next Monday.')]),
    ],
    expected: [],
  },
  {
    name: 'open-question',
    kind: 'none',
    nodes: [text('n1', 'A queue absorbs write bursts.'), ask('q1', 'Should we drop the queue and write synchronously?')],
    expected: [],
  },
  {
    name: 'unrelated',
    kind: 'none',
    nodes: [text('n1', 'The logo is blue.'), text('n2', 'Backups run at 02:00 UTC.')],
    expected: [],
  },
  {
    name: 'refinement',
    kind: 'near-miss',
    nodes: [text('n1', 'Writes are fast.'), text('n2', 'A write takes under 20 ms at the 99th percentile on the test machine.')],
    expected: [],
    // The scripted model raises a false alarm here.
    standIn: [['n1', 'n2']],
  },
  {
    name: 'options-then-choice',
    kind: 'near-miss',
    nodes: [
      table('n1', [
        ['option', 'for', 'against'],
        ['SQLite', 'queries', 'a binary file in git'],
        ['files', 'diffs', 'no queries'],
      ]),
      text('n2', 'Decided: files, because every change must diff.'),
    ],
    expected: [],
  },
  {
    name: 'change-over-time',
    kind: 'near-miss',
    nodes: [text('n1', 'Until March we deployed by hand; since then the pipeline deploys.'), text('n2', 'The pipeline deploys every merge to main.')],
    expected: [],
  },
  {
    name: 'different-subjects',
    kind: 'near-miss',
    nodes: [text('n1', 'The API times out after 30 s.'), text('n2', 'The database times out after 5 s.')],
    expected: [],
  },
  {
    name: 'ruled-out-stated-twice',
    kind: 'near-miss',
    nodes: [text('n1', 'Redis was ruled out.'), text('n2', 'We looked at Redis for rate limits and dropped it: one more server to run.')],
    expected: [],
  },
  {
    name: 'stated-exception',
    kind: 'near-miss',
    nodes: [text('n1', 'Releases go out on Fridays, except in December.'), text('n2', 'There are no releases in December.')],
    expected: [],
  },
  {
    name: 'scope',
    kind: 'near-miss',
    nodes: [text('n1', 'All writes go through the store.'), text('n2', "Reads do not take the store's lock.")],
    expected: [],
  },
  {
    name: 'plan-and-reason',
    kind: 'near-miss',
    nodes: [section('s1', 'Plan', [list('n1', ['ship the checker', 'measure its precision']), text('n2', 'We ship first because the corpus needs real use to grow.')])],
    expected: [],
  },
];
