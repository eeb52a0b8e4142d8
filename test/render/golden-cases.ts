// Golden cases (docs/projections.md, "Goldens"): each folder of snapshots/ holds the script.json or canvas.xml
// that makes the case, and the renders it must produce. A case is built in a fresh temporary
// workspace through the store's public write functions; setup-env fixes the git dates, so the
// shas, and therefore the goldens, are the same on every machine.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element as XastElement, Root as XastRoot } from 'xast';
import { fromXml } from 'xast-util-from-xml';
import { toXml } from 'xast-util-to-xml';
import type { Snapshot } from '../../src/model/snapshot.js';
import { abandonCanvas, createCanvas, freezeCanvas, openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode, moveNode, removeNode, replaceNode } from '../../src/store/write/node-writes.js';
import type { Outcome } from '../../src/store/repo/outcome.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import type { PayloadInput } from '../../src/model/payload-from-input.js';
import { AUTHOR, ROOT, tempWorkspace } from '../helpers/workspace.js';

/** The folder of the golden cases. */
export const SNAPSHOTS = join(ROOT, 'snapshots');

/** One step of a case script; `$name` refers to the id minted by an earlier step's `as`. */
interface Step {
  op: 'create' | 'open' | 'insert' | 'replace' | 'remove' | 'move' | 'freeze' | 'abandon';
  why: string;
  /** open */
  problem?: string;
  expectedValue?: string;
  /** insert, move */
  after?: string;
  into?: string;
  /** replace, remove, move */
  node?: string;
  /** insert, replace: exactly one payload */
  xml?: string;
  text?: string;
  question?: string;
  section?: string;
  /** insert, replace: an Excalidraw scene file, relative to the case folder, with its caption */
  excalidrawFile?: string;
  caption?: string;
  /** Name the id this step minted (open: two names, the problem and the expected value). */
  as?: string | string[];
}

/** A case script: `snapshots/<case>/script.json`. */
interface Script {
  ledger: string;
  steps: Step[];
}

/** Every case folder, sorted. */
export function caseNames(): string[] {
  return readdirSync(SNAPSHOTS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && (existsSync(join(SNAPSHOTS, d.name, 'script.json')) || existsSync(join(SNAPSHOTS, d.name, 'canvas.xml'))))
    .map((d) => d.name)
    .sort();
}

function applied(o: Outcome, what: string): { revision: string; node: string | null; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(`golden step ${what} was not applied: ${JSON.stringify(o)}`);
  return o;
}

function payloadOf(step: Step, dir: string): PayloadInput {
  if (step.excalidrawFile !== undefined) {
    const excalidraw = readFileSync(join(dir, step.excalidrawFile), 'utf8');
    return step.caption === undefined ? { excalidraw } : { excalidraw, caption: step.caption };
  }
  if (step.xml !== undefined) return { xml: step.xml };
  if (step.text !== undefined) return { text: step.text };
  if (step.question !== undefined) return { question: step.question };
  if (step.section !== undefined) return { section: step.section };
  throw new Error(`step ${step.op} has no payload`);
}

/** Run a script through the store's write functions; returns nothing, the workspace holds it. */
async function runScript(ws: Workspace, script: Script, dir: string): Promise<void> {
  const names = new Map<string, string>();
  const ref = (v: string | undefined): string | undefined => {
    if (v === undefined || !v.startsWith('$')) return v;
    const id = names.get(v.slice(1));
    if (!id) throw new Error(`unknown name ${v}`);
    return id;
  };
  const common = (step: Step, base: string) => ({ ledger: script.ledger, why: step.why, author: AUTHOR, base });
  let base = '';
  for (const [i, step] of script.steps.entries()) {
    const what = `${i + 1} (${step.op})`;
    let r: { revision: string; node: string | null; nodes?: string[] };
    switch (step.op) {
      case 'create':
        r = applied(await createCanvas(ws, { ledger: script.ledger, why: step.why, author: AUTHOR }), what);
        break;
      case 'open':
        r = applied(await openCanvas(ws, { ledger: script.ledger, why: step.why, author: AUTHOR, problem: step.problem ?? '', expectedValue: step.expectedValue ?? '' }), what);
        break;
      case 'freeze':
        r = applied(await freezeCanvas(ws, { ledger: script.ledger, why: step.why, author: AUTHOR }), what);
        break;
      case 'abandon':
        r = applied(await abandonCanvas(ws, { ledger: script.ledger, why: step.why, author: AUTHOR }), what);
        break;
      case 'insert':
        r = applied(await insertNode(ws, { ...common(step, base), after: ref(step.after), into: ref(step.into), payload: payloadOf(step, dir) }), what);
        break;
      case 'replace':
        r = applied(await replaceNode(ws, { ...common(step, base), node: ref(step.node)!, payload: payloadOf(step, dir) }), what);
        break;
      case 'remove':
        r = applied(await removeNode(ws, { ...common(step, base), node: ref(step.node)! }), what);
        break;
      case 'move':
        r = applied(await moveNode(ws, { ...common(step, base), node: ref(step.node)!, after: ref(step.after), into: ref(step.into) }), what);
        break;
    }
    base = r.revision;
    if (typeof step.as === 'string' && r.node) names.set(step.as, r.node);
    if (Array.isArray(step.as)) {
      for (const [k, n] of step.as.entries()) {
        const id = r.nodes?.[k];
        if (id) names.set(n, id);
      }
    }
  }
}

/**
 * Turn a `canvas.xml` (nodes without `id` and `v`) into a script: create, then every node
 * inserted in document order, a section first and then its children into it.
 */
function scriptFromXml(xml: string): Script {
  const root = fromXml(xml) as XastRoot;
  const canvas = root.children.find((c): c is XastElement => c.type === 'element')!;
  const ledger = canvas.attributes.ledger!;
  const steps: Step[] = [{ op: 'create', why: 'the case starts empty' }];
  let n = 0;
  const place = (parent: string | null, previous: string | null): Pick<Step, 'after' | 'into'> => (previous ? { after: `$${previous}` } : { into: parent ? `$${parent}` : 'root' });
  const walk = (children: XastElement['children'], parent: string | null): void => {
    let previous: string | null = null;
    for (const c of children) {
      if (c.type !== 'element') continue;
      n += 1;
      const name = `n${n}`;
      if (c.name === 'section') {
        steps.push({ op: 'insert', ...place(parent, previous), section: c.attributes.title ?? '', as: name, why: `the case needs section ${name}` });
        walk(c.children, name);
      } else {
        steps.push({ op: 'insert', ...place(parent, previous), xml: toXml(c), as: name, why: `the case needs node ${name}` });
      }
      previous = name;
    }
  };
  walk(canvas.children, null);
  return { ledger, steps };
}

const built = new Map<string, Promise<Snapshot>>();

/**
 * Make one case's canvas in a given workspace (the served workspace of the live tab's tests).
 *
 * @param ws - the workspace
 * @param name - the case folder under snapshots/
 * @returns the case's ledger id
 */
export async function buildCaseIn(ws: Workspace, name: string): Promise<string> {
  const dir = join(SNAPSHOTS, name);
  const scriptFile = join(dir, 'script.json');
  const script = existsSync(scriptFile) ? (JSON.parse(readFileSync(scriptFile, 'utf8')) as Script) : scriptFromXml(readFileSync(join(dir, 'canvas.xml'), 'utf8'));
  await runScript(ws, script, dir);
  return script.ledger;
}

/**
 * Build one case in a fresh workspace and read its snapshot (once per process).
 *
 * @param name - the case folder under snapshots/
 * @returns the snapshot the renders are made from
 */
export function buildCase(name: string): Promise<Snapshot> {
  let hit = built.get(name);
  if (!hit) {
    hit = (async () => {
      const ws = tempWorkspace(`canvas-golden-${name}-`);
      return readSnapshot(ws, { ledger: await buildCaseIn(ws, name) });
    })();
    built.set(name, hit);
  }
  return hit;
}
