// Page render and CLI render against `pandoc -s` on the same content as Markdown (the canvas's
// own Markdown projection, its comment), whole process, as a CI would run it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderComment } from '../../src/render/comment/render-comment.js';
import { preparePage } from '../../src/render/html/prepare-page.js';
import { renderPage } from '../../src/render/html/render-page.js';
import { readSnapshot } from '../../src/store/read/read-snapshot.js';
import { type BenchContext, type BenchResult, cliCommand, cliEnv, pairs } from '../lib/context.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { interleave, timeCall, timeProcess } from '../lib/measure.js';
import { ensurePandoc, pandocArgs } from '../lib/pandoc.js';
import { growthFamilies, renderWorkspace } from '../lib/workspaces.js';

function skipped(name: string, measured: string, why: string): BenchResult {
  return { name, measured, baseline: 'pandoc -s', target: '-', pass: null, figure: `skipped: ${why}`, skipped: true };
}

/** The canvases of 10, 100 and 1,000 nodes (the growth family's workspaces). */
function sizes(ctx: BenchContext) {
  const family = growthFamilies(ctx.quick).find((f) => f.axis === 'nodes per canvas')!;
  return family.points;
}

/**
 * The library's page (`preparePage`, which draws the figures, then `renderPage`), in process,
 * against `pandoc -s` of the same content.
 */
export async function pageRender(ctx: BenchContext): Promise<BenchResult[]> {
  const pandoc = ensurePandoc(ctx.log);
  const out: BenchResult[] = [];
  for (const point of sizes(ctx)) {
    const name = `page render, ${point.value} nodes`;
    if ('missing' in pandoc) {
      out.push(skipped(name, 'renderPage', pandoc.missing));
      continue;
    }
    const gen = await generateWorkspace(point.spec, ctx.root, ctx.log);
    const snapshot = await readSnapshot(gen.ws, { ledger: point.ledger });
    const md = join(ctx.scratch, `page-${point.value}.md`);
    writeFileSync(md, renderComment(snapshot));
    const page = async () => renderPage(snapshot, await preparePage(snapshot));
    const html = await page();
    const cmp = await interleave(
      ...pairs(ctx, 20, 5),
      () => timeCall(page),
      () => timeProcess('pandoc', pandocArgs(md, point.ledger)).ms,
    );
    out.push({
      name,
      measured: `preparePage and renderPage of a ${point.value}-node canvas (${Math.round(html.length / 1024)} KB of HTML), in process`,
      baseline: 'pandoc -s of its Markdown, whole process',
      target: 'ratio <= 0.5',
      ...cmp,
      pass: cmp.ratio.median <= 0.5,
      figure: 'ratio',
      detail: { pandoc: pandoc.version },
    });
  }
  return out;
}

/** `canvas render` of the 1,000-node canvas, whole process, against the same `pandoc -s`. */
export async function cliRender(ctx: BenchContext): Promise<BenchResult> {
  // The target is set at 1,000 nodes, in quick mode too (fewer rounds): at 100 nodes the fixed
  // start-up of a whole process is most of the figure, and the ratio judged would be another one.
  const point = renderWorkspace(ctx.quick);
  const name = 'CLI render';
  const pandoc = ensurePandoc(ctx.log);
  if ('missing' in pandoc) return skipped(name, `canvas render, ${point.value} nodes`, pandoc.missing);
  const gen = await generateWorkspace(point.spec, ctx.root, ctx.log);
  const md = join(ctx.scratch, `render-${point.value}.md`);
  writeFileSync(md, renderComment(await readSnapshot(gen.ws, { ledger: point.ledger })));
  const [node, pre] = cliCommand(ctx);
  const env = cliEnv(gen.ws, GEN_AUTHOR);
  const cmp = await interleave(
    ...pairs(ctx, 20, 3),
    () => {
      const r = timeProcess(node, [...pre, 'render', point.ledger], { env });
      if (!/^<!doctype html>/i.test(r.stdout)) throw new Error(`canvas render printed:\n${r.stdout.slice(0, 200)}`);
      return r;
    },
    () => timeProcess('pandoc', pandocArgs(md, point.ledger)),
  );
  return {
    name,
    measured: `canvas render of a ${point.value}-node canvas, whole process`,
    baseline: 'pandoc -s of its Markdown, whole process',
    target: 'CPU ratio <= 1.0',
    ...cmp,
    pass: cmp.cpu!.ratio.median <= 1.0,
    figure: 'ratio',
    detail: { pandoc: pandoc.version },
  };
}
