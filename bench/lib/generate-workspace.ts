// Deterministic workspaces of any size, written as one pack that `git index-pack` stores (each
// root tree a delta against the one before, bench/lib/git-pack.ts): every commit is the one the
// store would have made (subject, Canvas-* trailers, Canvas-Previous chain, canonical
// XML, minted ids), computed in process so each sha is known before git sees it. Cached under
// the system temp directory, keyed by the parameters and the sources the bytes come from.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editTree, type TreeEdit } from '../../src/model/edit-tree.js';
import { indexNodes } from '../../src/model/index-nodes.js';
import { mintId } from '../../src/model/mint-id.js';
import { serializeCanvas } from '../../src/model/serialize-canvas.js';
import { serializeNode } from '../../src/model/serialize-node.js';
import type { Canvas, NodePayload } from '../../src/model/types.js';
import { formatCommitMessage, parseCommit, type TrailerKey } from '../../src/store/repo/canvas-commit.js';
import { type CanvasFacts, emptyFacts, foldCommit } from '../../src/store/repo/canvas-facts.js';
import { saveCanvasTree } from '../../src/store/repo/canvas-tree-cache.js';
import { ensureRepo } from '../../src/store/repo/ensure-repo.js';
import { runGit } from '../../src/store/git/git.js';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { commitObject, FlatTree, objectSha } from './git-objects.js';
import { PackWriter } from './git-pack.js';
import { pruneCache } from './prune-cache.js';
import { rng, shuffle } from './random.js';

/** What to generate. */
export interface WorkspaceSpec {
  /** Canvases besides the big one. */
  canvases: number;
  /** Commits in the repository, in all. */
  commits: number;
  /** Nodes per ordinary canvas: uniform in [min, max]. */
  minNodes: number;
  maxNodes: number;
  /** One canvas `big` with this many nodes (0: none). */
  bigNodes: number;
  /** Commits of the big canvas (at least bigNodes + 1). */
  bigCommits?: number;
  seed: number;
}

/** A generated workspace and what the benchmarks need to know about it. */
export interface GeneratedWorkspace {
  ws: Workspace;
  /** The directory holding the workspace (to copy for benchmarks that write). */
  dir: string;
  ledgers: string[];
  /** The revision of each canvas. */
  revisions: Record<string, string>;
  /** Per canvas: its node ids in document order and its number of commits. */
  nodes: Record<string, string[]>;
  commitsOf: Record<string, number>;
  /** Seconds it took to generate (0 when it came from the cache). */
  seconds: number;
  cached: boolean;
}

/** The author of every generated commit. */
export const GEN_AUTHOR = 'bench | by-hand';
const START = 1767225600; // 2026-01-01T00:00:00Z

const SOURCES = [
  'bench/lib/generate-workspace.ts',
  'src/store/repo/canvas-facts.ts',
  'src/store/repo/canvas-tree-cache.ts',
  'src/store/repo/tree-cache-path.ts',
  'bench/lib/git-objects.ts',
  'bench/lib/git-pack.ts',
  'bench/lib/random.ts',
  'src/model/edit-tree.ts',
  'src/model/mint-id.ts',
  'src/model/serialize-canvas.ts',
  'src/model/serialize-node.ts',
  'src/model/escape-xml.ts',
  'src/store/repo/canvas-commit.ts',
  'src/store/repo/ensure-repo.ts',
];

const WORDS =
  'the store writes one node per commit and every edit carries a reason so a later reader sees why the decision was taken what was ruled out and which question is still open before the release'.split(' ');

function sentence(r: () => number, tag: string): string {
  const n = 8 + Math.floor(r() * 12);
  const words: string[] = [];
  for (let i = 0; i < n; i += 1) words.push(WORDS[Math.floor(r() * WORDS.length)]!);
  return `${words.join(' ')} (${tag}).`;
}

function blockPayload(r: () => number, tag: string): NodePayload {
  const x = r();
  if (x < 0.7) return { type: 'text', text: sentence(r, tag) };
  if (x < 0.85) return { type: 'question', answered: r() < 0.3, text: sentence(r, tag).replace(/\.$/, '?') };
  if (x < 0.95) return { type: 'list', ordered: r() < 0.5, items: [sentence(r, `${tag}a`), sentence(r, `${tag}b`), sentence(r, `${tag}c`)] };
  return { type: 'link', href: `https://example.org/${tag}`, label: sentence(r, tag) };
}

/** One canvas's generation state. */
interface CanvasGen {
  ledger: string;
  nodes: number;
  commits: number;
  done: number;
  canvas: Canvas;
  revision: string | null;
  ids: Set<string>;
  /** The latest root-level section, where about half the next blocks go. */
  section: string | null;
  /** The facts the store keeps in `.git/canvas-cache/` (every store write saves them). */
  facts: CanvasFacts;
}

function keyOf(spec: WorkspaceSpec, root: string): string {
  const h = createHash('sha256').update(JSON.stringify(spec));
  for (const f of SOURCES) h.update(readFileSync(join(root, f)));
  return h.digest('hex').slice(0, 16);
}

/** The next edit of a canvas: inserts until it has its nodes, then replaces and a few moves. */
function nextEdit(g: CanvasGen, r: () => number, tag: string): { edit: TreeEdit; payloadXml: string | null } {
  const index = indexNodes(g.canvas);
  if (index.size < g.nodes) {
    let payload: NodePayload;
    let anchor: { after: string } | { into: string };
    const rootKids = g.canvas.children;
    const lastRoot = rootKids[rootKids.length - 1];
    if (index.size % 10 === 0) {
      payload = { type: 'section', title: sentence(r, tag).slice(0, 60), children: [] };
      anchor = lastRoot ? { after: lastRoot.id } : { into: 'root' };
    } else {
      payload = blockPayload(r, tag);
      const sec = g.section ? index.get(g.section)?.node : undefined;
      if (sec?.type === 'section' && r() < 0.6) {
        const last = sec.children[sec.children.length - 1];
        anchor = last ? { after: last.id } : { into: sec.id };
      } else {
        anchor = lastRoot ? { after: lastRoot.id } : { into: 'root' };
      }
    }
    const payloadXml = serializeNode(payload, { payload: true });
    const id = mintId(g.ledger, g.revision!, payloadXml, (x) => g.ids.has(x));
    if (payload.type === 'section') g.section = id;
    return { edit: { op: 'insert', id, payload, anchor }, payloadXml };
  }
  const blocks = [...index.values()].filter((e) => e.node.type !== 'section');
  const pick = blocks[Math.floor(r() * blocks.length)]!;
  if (r() < 0.08 && g.canvas.children.length > 2) {
    // Move a block to the end of the root (a crossing when it sat in a section).
    const lastRoot = g.canvas.children[g.canvas.children.length - 1]!;
    if (lastRoot.id !== pick.node.id) return { edit: { op: 'move', node: pick.node.id, anchor: { after: lastRoot.id } }, payloadXml: null };
  }
  return { edit: { op: 'replace', node: pick.node.id, payload: blockPayload(r, tag) }, payloadXml: null };
}

/** Remove the cache's entries unused for hours (bench/lib/prune-cache.ts), saying how many. */
function forget(cacheRoot: string, key: string, log: (s: string) => void): void {
  const removed = pruneCache(cacheRoot, key);
  if (removed.length > 0) log(`removed ${removed.length} cached workspaces unused for six hours from ${cacheRoot}`);
}

/**
 * Generate (or take from the cache) a workspace; the cache's entries unused for six hours are
 * removed (bench/lib/prune-cache.ts).
 *
 * @param spec - sizes and seed
 * @param root - the project root (sources are hashed into the cache key)
 * @param log - progress lines
 * @param cacheRoot - the cache's directory: by default `<tmpdir>/canvas-bench`, which the
 *   benchmark runs share; a test passes one it removes
 */
export async function generateWorkspace(spec: WorkspaceSpec, root: string, log: (s: string) => void = () => {}, cacheRoot = join(tmpdir(), 'canvas-bench')): Promise<GeneratedWorkspace> {
  const key = keyOf(spec, root);
  const dir = join(cacheRoot, key);
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Omit<GeneratedWorkspace, 'ws' | 'dir' | 'cached'>;
    // Its modification time is its last use: what the cache's pruning judges by.
    const now = new Date();
    utimesSync(dir, now, now);
    forget(cacheRoot, key, log);
    return { ...m, ws: resolveWorkspace({ workspace: join(dir, 'ws') }), dir, cached: true };
  }
  const started = performance.now();
  log(`generating ${spec.commits} commits over ${spec.canvases + (spec.bigNodes ? 1 : 0)} canvases (cache ${dir})`);
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'ws'), { recursive: true });
  const ws = resolveWorkspace({ workspace: join(tmp, 'ws') });
  await ensureRepo(ws);

  const r = rng(spec.seed);
  const gens: CanvasGen[] = [];
  const width = String(spec.canvases).length;
  const fresh = (ledger: string, nodes: number, commits: number): CanvasGen => ({
    ledger,
    nodes,
    commits,
    done: 0,
    canvas: { ledger, schema: '2', children: [] },
    revision: null,
    ids: new Set(),
    section: null,
    facts: emptyFacts(),
  });
  let left = spec.commits;
  if (spec.bigNodes > 0) {
    const c = Math.max(spec.bigCommits ?? spec.bigNodes + 1, spec.bigNodes + 1);
    gens.push(fresh('big', spec.bigNodes, c));
    left -= c;
  }
  const sizes = Array.from({ length: spec.canvases }, () => spec.minNodes + Math.floor(r() * (spec.maxNodes - spec.minNodes + 1)));
  const need = sizes.reduce((a, n) => a + n + 1, 0);
  if (need > left) throw new Error(`${spec.commits} commits are too few for ${spec.canvases} canvases of ${spec.minNodes}-${spec.maxNodes} nodes (need ${need})`);
  const spare = left - need;
  sizes.forEach((n, i) => {
    const extra = Math.floor(spare / spec.canvases) + (i < spare % spec.canvases ? 1 : 0);
    gens.push(fresh(`c${String(i).padStart(width, '0')}`, n, n + 1 + extra));
  });
  // Which canvas each commit belongs to: every canvas's commits, shuffled.
  const order: number[] = [];
  gens.forEach((g, i) => {
    for (let k = 0; k < g.commits; k += 1) order.push(i);
  });
  shuffle(order, r);

  // Every commit's blob, root tree and commit object, in one pack that git indexes.
  const pack = new PackWriter(ws.repo, order.length * 3);
  const tree = new FlatTree();
  let main: string | null = null;
  const trees: string[] = [];
  for (let i = 0; i < order.length; i += 1) {
    const g = gens[order[i]!]!;
    const time = START + i;
    const tag = `${g.ledger}-${g.done}`;
    const trailers: Partial<Record<TrailerKey, string>> = { 'Canvas-Op': 'create', 'Canvas-Ledger': g.ledger, 'Canvas-Author': GEN_AUTHOR };
    let node: string | null = null;
    let why = 'the canvas for this task';
    if (g.revision !== null) {
      const { edit } = nextEdit(g, r, tag);
      const from = edit.op === 'move' ? (indexNodes(g.canvas).get(edit.node)?.parent ?? 'root') : null;
      const { canvas } = editTree(g.canvas, edit);
      g.canvas = canvas;
      node = edit.op === 'insert' ? edit.id : edit.node;
      g.ids.add(node);
      trailers['Canvas-Op'] = edit.op;
      trailers['Canvas-Node'] = node;
      trailers['Canvas-Base'] = g.revision;
      trailers['Canvas-Previous'] = g.revision;
      if (edit.op === 'move') {
        trailers['Canvas-From'] = from!;
        trailers['Canvas-To'] = indexNodes(g.canvas).get(edit.node)?.parent ?? 'root';
      }
      why = `${edit.op} ${g.done}: keep the record current`;
    }
    const op = trailers['Canvas-Op']!;
    const message = formatCommitMessage(op as 'create', node, why, trailers);
    const xml = Buffer.from(serializeCanvas(g.canvas));
    const blob = objectSha('blob', xml);
    const change = tree.set(`${g.ledger}.xml`, blob);
    const treeSha = tree.sha();
    trees.push(treeSha);
    const author = `${GEN_AUTHOR} <> ${time} +0000`;
    const committer = `canvas <> ${time} +0000`;
    const commitBytes = commitObject(treeSha, main, author, committer, message);
    const sha = objectSha('commit', commitBytes);
    foldCommit(g.facts, parseCommit(sha, commitBytes));
    pack.whole('blob', xml);
    pack.tree(tree.bytes(), i === 0 ? null : change);
    pack.whole('commit', commitBytes);
    await pack.flush();
    main = sha;
    g.revision = sha;
    g.done += 1;
    if (i % 10000 === 9999) log(`  ${i + 1} commits`);
  }
  await pack.end();
  // Every tree went in as a delta: git must hold each one under the sha computed here.
  const missing = (await runGit(ws.repo, ['cat-file', '--batch-check'], { input: `${trees.join('\n')}\n` })).stdout.split('\n').filter((l) => l.endsWith(' missing'));
  if (missing.length > 0) throw new Error(`the pack lacks ${missing.length} of its trees (first: ${missing[0]})`);
  const updates = [`update refs/heads/main ${main}`, ...gens.map((g) => `update refs/canvas/${g.ledger} ${g.revision}`)];
  await runGit(ws.repo, ['update-ref', '-m', 'generate', '--stdin'], { input: `${updates.join('\n')}\n` });

  // The generator computed every sha itself: git must agree, or the bytes drifted.
  const refs = await gitOut(ws.repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/canvas', 'refs/heads/main']);
  const have = new Map(
    refs
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
  if (have.get('refs/heads/main') !== main) throw new Error(`git holds main at ${have.get('refs/heads/main')}, the generator computed ${main}`);
  for (const g of gens) {
    if (have.get(`refs/canvas/${g.ledger}`) !== g.revision) throw new Error(`refs/canvas/${g.ledger} differs from the computed revision`);
    const xml = serializeCanvas(g.canvas);
    writeFileSync(join(ws.repo, `${g.ledger}.xml`), xml);
    // As a workspace the store wrote has them: each write saves its canvas's facts.
    mkdirSync(join(ws.repo, '.git', 'canvas-cache'), { recursive: true });
    writeFileSync(join(ws.repo, '.git', 'canvas-cache', `${g.ledger}.json`), JSON.stringify(g.facts));
    // and the tree of the document it wrote, keyed by its blob.
    saveCanvasTree(join(ws.repo, '.git'), g.ledger, objectSha('blob', Buffer.from(xml, 'utf8')), g.canvas);
  }
  const result: Omit<GeneratedWorkspace, 'ws' | 'dir' | 'cached'> = {
    ledgers: gens.map((g) => g.ledger),
    revisions: Object.fromEntries(gens.map((g) => [g.ledger, g.revision!])),
    nodes: Object.fromEntries(gens.map((g) => [g.ledger, [...indexNodes(g.canvas).keys()]])),
    commitsOf: Object.fromEntries(gens.map((g) => [g.ledger, g.commits])),
    seconds: (performance.now() - started) / 1000,
  };
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(result));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`  generated in ${result.seconds.toFixed(1)} s`);
  forget(cacheRoot, key, log);
  return { ...result, ws: resolveWorkspace({ workspace: join(dir, 'ws') }), dir, cached: false };
}

async function gitOut(repo: string, args: string[]): Promise<string> {
  return (await runGit(repo, args)).stdout;
}
