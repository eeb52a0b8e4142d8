// The generated workspaces the benchmarks use, full size and quick.
import type { WorkspaceSpec } from './generate-workspace.js';

/** The workspace of the edit and read benchmarks: a 200-node canvas among 10,000 commits. */
export function editWorkspace(quick: boolean): WorkspaceSpec {
  return quick
    ? { canvases: 10, commits: 1_000, minNodes: 30, maxNodes: 80, bigNodes: 50, bigCommits: 80, seed: 7 }
    : { canvases: 100, commits: 10_000, minNodes: 30, maxNodes: 80, bigNodes: 200, bigCommits: 300, seed: 7 };
}

/** The workspace of the history benchmark: 100,000 commits over 1,000 canvases. */
export function historyWorkspace(quick: boolean): WorkspaceSpec {
  return quick ? { canvases: 20, commits: 2_000, minNodes: 30, maxNodes: 80, bigNodes: 0, seed: 11 } : { canvases: 1_000, commits: 100_000, minNodes: 30, maxNodes: 80, bigNodes: 0, seed: 11 };
}

/** The workspace of the list benchmark: 1,000 canvases of 10-40 nodes, 40,000 commits. */
export function listWorkspace(quick: boolean): WorkspaceSpec {
  return quick ? { canvases: 50, commits: 2_000, minNodes: 10, maxNodes: 40, bigNodes: 0, seed: 13 } : { canvases: 1_000, commits: 40_000, minNodes: 10, maxNodes: 40, bigNodes: 0, seed: 13 };
}

/**
 * The site build's scale pair: 1,000 and 10,000 canvases of one shape (quick: 20 and 200). The
 * canvases are small (3-8 nodes, one commit per node) because the workspace is what the store
 * makes: every commit rewrites a root tree with one entry per canvas (about 370 KB at 10,000),
 * so 10,000 canvases of 30-80 nodes would be 560,000 commits and some 200 GB of trees for git.
 */
export function siteWorkspaces(quick: boolean): [WorkspaceSpec, WorkspaceSpec] {
  const of = (canvases: number): WorkspaceSpec => ({ canvases, commits: canvases * 7, minNodes: 3, maxNodes: 8, bigNodes: 0, seed: 23 });
  return quick ? [of(20), of(200)] : [of(1_000), of(10_000)];
}

/** A family of workspaces along one axis of growth. */
export interface GrowthFamily {
  axis: 'nodes per canvas' | 'canvases per workspace' | 'commits in the repository';
  /** The value on the axis, and the workspace. */
  points: Array<{ value: number; spec: WorkspaceSpec; ledger: string }>;
}

/** The growth families: nodes per canvas, canvases per workspace, commits in the repository. */
export function growthFamilies(quick: boolean): GrowthFamily[] {
  const nodes = quick ? [10, 100] : [10, 100, 1_000];
  const canvases = quick ? [5, 20] : [10, 100, 1_000];
  const commits = quick ? [500, 2_000] : [1_000, 10_000, 100_000];
  return [
    {
      axis: 'nodes per canvas',
      points: nodes.map((n) => ({
        value: n,
        spec: { canvases: 10, commits: 1_000 + n + 21, minNodes: 30, maxNodes: 80, bigNodes: n, bigCommits: n + 21, seed: 3 },
        ledger: 'big',
      })),
    },
    {
      axis: 'canvases per workspace',
      points: canvases.map((k) => ({
        value: k,
        // 100 commits per canvas, as in the history workspace.
        spec: { canvases: k, commits: k * 100, minNodes: 30, maxNodes: 80, bigNodes: 0, seed: 11 },
        ledger: 'c'.padEnd(String(k).length + 1, '0'),
      })),
    },
    {
      axis: 'commits in the repository',
      points: commits.map((c) => ({
        value: c,
        // Ten canvases: each one's own chain grows with the repository.
        spec: { canvases: 10, commits: c, minNodes: 30, maxNodes: 40, bigNodes: 0, seed: 5 },
        ledger: 'c00',
      })),
    },
  ];
}

/**
 * The inbox benchmark's workspace: 100 canvases and the big one, and 10,000 commits after their
 * creates (quick: the edit benchmarks' workspace, 11 canvases and 1,000 commits, generated once
 * for both), every one of them unread by a watcher of all of them.
 */
export function inboxWorkspace(quick: boolean): WorkspaceSpec {
  return quick ? editWorkspace(true) : { canvases: 100, commits: 10_101, minNodes: 30, maxNodes: 80, bigNodes: 200, bigCommits: 300, seed: 17 };
}

/**
 * The canvas of 1,000 nodes `canvas render` draws: the growth family's largest point (a full run
 * generates it once for both); a quick run, which has no such point, generates that canvas alone.
 */
export function renderWorkspace(quick: boolean): { spec: WorkspaceSpec; ledger: string; value: number } {
  const point = growthFamilies(false)
    .find((f) => f.axis === 'nodes per canvas')!
    .points.at(-1)!;
  if (!quick) return point;
  return { ...point, spec: { canvases: 0, commits: point.value + 1, minNodes: 30, maxNodes: 80, bigNodes: point.value, bigCommits: point.value + 1, seed: point.spec.seed } };
}

/** The agent session's canvas of the MCP tokens benchmark: 200 nodes, alone, in quick runs too. */
export function sessionWorkspace(): WorkspaceSpec {
  return { canvases: 0, commits: 201, minNodes: 30, maxNodes: 80, bigNodes: 200, bigCommits: 201, seed: 29 };
}

/** Every point of the growth families. */
export function growthWorkspaces(quick: boolean): WorkspaceSpec[] {
  return growthFamilies(quick).flatMap((f) => f.points.map((p) => p.spec));
}
