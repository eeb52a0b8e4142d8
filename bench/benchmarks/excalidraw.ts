// Drawing an Excalidraw scene of 500 elements in process, against the diagram drawer on the same
// graph (docs/excalidraw.md, "Limits"; docs/performance.md): 100 nodes and 200 edges, 100 of
// them labelled, which is the diagram grammar's own limit. The scene draws that graph as
// Excalidraw would hold it: a rectangle and its bound text per node, an arrow per edge, a bound
// label per labelled edge (100 + 100 + 200 + 100 = 500 elements), placed on a grid.
import { toHtml } from 'hast-util-to-html';
import { readScene } from '../../src/model/excalidraw/read-scene.js';
import { drawDiagram } from '../../src/render/figures/draw-diagram.js';
import { drawExcalidraw } from '../../src/render/figures/draw-excalidraw.js';
import { type BenchContext, type BenchResult, pairs } from '../lib/context.js';
import { interleave, timeCall } from '../lib/measure.js';
import { rng } from '../lib/random.js';

const NODES = 100;
const EDGES = 200;

/** The graph both drawers draw: seeded, so every run draws the same one. */
function graph(): { from: number; to: number; label: string | null }[] {
  const r = rng(1601);
  return Array.from({ length: EDGES }, (_, i) => {
    const from = Math.floor(r() * NODES);
    const to = (from + 1 + Math.floor(r() * (NODES - 1))) % NODES;
    return { from, to, label: i % 2 === 0 ? `call ${i}` : null };
  });
}

function diagramSource(edges: ReturnType<typeof graph>): string {
  const lines = ['diagram 1', 'direction right'];
  for (let i = 0; i < NODES; i += 1) lines.push(`node n${i} "Service ${i}"`);
  for (const e of edges) lines.push(`n${e.from} -> n${e.to}${e.label ? ` "${e.label}"` : ''}`);
  return lines.join('\n');
}

function sceneText(edges: ReturnType<typeof graph>): string {
  const r = rng(1602);
  const seed = () => 1 + Math.floor(r() * 2 ** 30);
  const at = (i: number) => ({ x: (i % 10) * 260, y: Math.floor(i / 10) * 180 });
  const base = {
    angle: 0,
    strokeColor: '#1e1e1e',
    fillStyle: 'hachure',
    strokeWidth: 2,
    strokeStyle: 'solid',
    roughness: 1,
    opacity: 100,
    groupIds: [],
    frameId: null,
    isDeleted: false,
    link: null,
    locked: false,
  };
  const elements: Record<string, unknown>[] = [];
  for (let i = 0; i < NODES; i += 1) {
    const { x, y } = at(i);
    elements.push({
      ...base,
      id: `n${i}`,
      type: 'rectangle',
      x,
      y,
      width: 160,
      height: 70,
      backgroundColor: '#a5d8ff',
      roundness: { type: 3 },
      seed: seed(),
      boundElements: [{ type: 'text', id: `n${i}-label` }],
    });
    elements.push({
      ...base,
      id: `n${i}-label`,
      type: 'text',
      x: x + 30,
      y: y + 22,
      width: 100,
      height: 25,
      backgroundColor: 'transparent',
      roundness: null,
      seed: seed(),
      text: `Service ${i}`,
      fontSize: 20,
      fontFamily: 5,
      textAlign: 'center',
      verticalAlign: 'middle',
      containerId: `n${i}`,
      originalText: `Service ${i}`,
      lineHeight: 1.25,
    });
  }
  edges.forEach((e, i) => {
    const [a, b] = [at(e.from), at(e.to)];
    const [x, y] = [a.x + 160, a.y + 35];
    const points = [
      [0, 0],
      [b.x - x, b.y + 35 - y],
    ];
    elements.push({
      ...base,
      id: `e${i}`,
      type: 'arrow',
      x,
      y,
      width: Math.abs(b.x - x),
      height: Math.abs(b.y + 35 - y),
      backgroundColor: 'transparent',
      roundness: { type: 2 },
      seed: seed(),
      points,
      startBinding: { elementId: `n${e.from}`, focus: 0, gap: 1 },
      endBinding: { elementId: `n${e.to}`, focus: 0, gap: 1 },
      startArrowhead: null,
      endArrowhead: 'arrow',
      boundElements: e.label ? [{ type: 'text', id: `e${i}-label` }] : null,
    });
    if (e.label)
      elements.push({
        ...base,
        id: `e${i}-label`,
        type: 'text',
        x: x + (b.x - x) / 2 - 30,
        y: y + (b.y + 35 - y) / 2 - 10,
        width: 60,
        height: 20,
        backgroundColor: 'transparent',
        roundness: null,
        seed: seed(),
        text: e.label,
        fontSize: 16,
        fontFamily: 5,
        textAlign: 'center',
        verticalAlign: 'middle',
        containerId: `e${i}`,
        originalText: e.label,
        lineHeight: 1.25,
      });
  });
  return readScene(JSON.stringify({ type: 'excalidraw', version: 2, source: 'bench', elements, appState: { viewBackgroundColor: '#ffffff' }, files: {} })).text;
}

/**
 * `drawExcalidraw` of a 500-element scene (its reading and checking included) and its HTML
 * serialization, against `drawDiagram` of the same graph (its parse and dagre layout included),
 * interleaved in one process.
 */
export async function excalidrawDraw(ctx: BenchContext): Promise<BenchResult> {
  const edges = graph();
  const scene = sceneText(edges);
  const source = diagramSource(edges);
  const elements = readScene(scene).elements.length;
  if (elements !== 500) throw new Error(`the bench scene has ${elements} elements, not 500`);
  const svg = toHtml(drawExcalidraw(scene));
  const cmp = await interleave(
    ...pairs(ctx, 12, 2),
    () => timeCall(() => toHtml(drawExcalidraw(scene))),
    () => timeCall(() => toHtml(drawDiagram(source))),
  );
  return {
    name: 'excalidraw draw, 500 elements',
    measured: `drawExcalidraw of a scene of ${elements} elements (${Math.round(svg.length / 1024)} KB of SVG), in process`,
    baseline: `drawDiagram of the same graph (${NODES} nodes, ${EDGES} edges), in process`,
    target: 'ratio <= 1',
    ...cmp,
    pass: cmp.ratio.median <= 1,
    figure: 'ratio',
  };
}
