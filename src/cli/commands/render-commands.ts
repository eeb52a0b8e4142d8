import { type Command, Option } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import type { Snapshot } from '../../model/snapshot.js';
import type { SnapshotOptions } from '../../store/read/read-snapshot.js';
import type { Workspace } from '../../store/repo/workspace.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

type Format = 'html' | 'comment' | 'text' | 'prompt' | 'excalidraw' | 'done';

/** Read a snapshot (the store's snapshot read parses the canvas: imported when a render runs). */
async function snapshotOf(ws: Workspace, options: SnapshotOptions): Promise<Snapshot> {
  const { readSnapshot } = await import('../../store/read/read-snapshot.js');
  return readSnapshot(ws, options);
}

/** Render a snapshot in one format; each renderer is imported only when asked for. */
async function renderAs(snapshot: Snapshot, format: Format): Promise<string> {
  switch (format) {
    case 'html': {
      const [{ preparePage }, { renderPage }] = await Promise.all([import('../../render/html/prepare-page.js'), import('../../render/html/render-page.js')]);
      return renderPage(snapshot, await preparePage(snapshot));
    }
    case 'comment': {
      const { renderComment } = await import('../../render/comment/render-comment.js');
      return renderComment(snapshot);
    }
    case 'text':
    case 'prompt': {
      const { renderPrompt } = await import('../../render/text/render-prompt.js');
      return renderPrompt(snapshot);
    }
    case 'excalidraw':
      throw new CanvasError('USAGE', '--format excalidraw exports one figure: name it with --figure <id>', `for example canvas render ${snapshot.ledger} --figure <id> --format excalidraw -o sketch.excalidraw`);
    case 'done': {
      const { renderDone } = await import('../../render/done/render-done.js');
      return renderDone(snapshot);
    }
  }
}

/** The one figure `--figure` names, as its format exports it (docs/excalidraw.md, "Export and import"). */
async function exportFigure(snapshot: Snapshot, figure: string, format: Format): Promise<string> {
  if (format !== 'excalidraw') {
    throw new CanvasError('USAGE', `--figure exports one figure as --format excalidraw, not ${format}`, `for example canvas render ${snapshot.ledger} --figure ${figure} --format excalidraw`);
  }
  const { exportScene } = await import('../../render/figures/excalidraw-export.js');
  return exportScene(snapshot.canvas, figure);
}

function count(flag: string) {
  return (v: string): number => {
    if (!/^(0|[1-9][0-9]{0,5})$/.test(v)) throw new CanvasError('USAGE', `${flag} ${v} is not a whole number of edits`, `for example ${flag} 10 (0 shows none)`);
    return Number(v);
  };
}

/**
 * Print a projection: on stdout (also for `-o -`), or into `-o FILE`; with --json, one object
 * saying what was done.
 */
async function emit(ws: Workspace, o: GlobalOptions & { output?: string }, facts: Record<string, unknown>, content: string): Promise<void> {
  if (o.output !== undefined && o.output !== '-') {
    // Imported here: it loads node:crypto, which no other command's start-up should pay for.
    const { writeOutput } = await import('../write-output.js');
    const output = writeOutput(o.output, content, ws);
    if (o.json) printJson({ ...facts, output });
    return;
  }
  if (o.json) printJson({ ...facts, content });
  else process.stdout.write(content);
}

/**
 * Register render and prompt (`docs/projections.md`; `docs/cli.md`). Reads are not role-gated on
 * the command line; the renderers load only when these commands run, so `canvas read` stays light.
 */
export function registerRenderCommands(program: Command): void {
  withGlobal(program.command('render'))
    .description('render the canvas at one revision: the HTML page, the Basecamp comment, or the prompt text')
    .argument('<ledger>', 'the ledger id')
    .option('--at <sha>', 'the canvas as it stood at this commit')
    .addOption(
      new Option(
        '--format <format>',
        "html (a standalone page), comment (Markdown), text or prompt (the prompt), excalidraw (one figure's scene, with --figure), done (the done artifact; with --json, its JSON)",
      )
        .choices(['html', 'comment', 'text', 'prompt', 'excalidraw', 'done'])
        .default('html'),
    )
    .option('--figure <id>', 'with --format excalidraw: the figure whose scene to print, to save as a .excalidraw file')
    .option('-o, --output <file>', 'write to FILE (atomically) instead of stdout; - is stdout')
    .action(async (ledger: string, o: GlobalOptions & { at?: string; format: Format; figure?: string; output?: string }) => {
      const ws = workspaceOf(o);
      const snapshot = await snapshotOf(ws, { ledger, at: o.at });
      const facts = { ledger: snapshot.ledger, revision: snapshot.revision, format: o.format, ...(o.figure === undefined ? {} : { figure: o.figure }) };
      if (o.format === 'done' && o.json && o.figure === undefined) {
        // The done artifact is JSON by nature: --json prints the artifact itself (schema/done.schema.json).
        const { doneArtifact } = await import('../../render/done/done-artifact.js');
        const artifact = `${JSON.stringify(doneArtifact(snapshot), null, 2)}\n`;
        if (o.output !== undefined && o.output !== '-') await emit(ws, o, facts, artifact);
        else process.stdout.write(artifact);
        return;
      }
      const content = o.figure === undefined ? await renderAs(snapshot, o.format) : await exportFigure(snapshot, o.figure, o.format);
      await emit(ws, o, facts, content);
    });

  withGlobal(program.command('prompt'))
    .description('print what a step gets instead of the conversation: Canvas-Base, the discipline, the document, the last edits')
    .argument('<ledger>', 'the ledger id')
    .option('--edits <n>', 'how many recent edits to show (default 10)', count('--edits'))
    .option('-o, --output <file>', 'write to FILE (atomically) instead of stdout; - is stdout')
    .action(async (ledger: string, o: GlobalOptions & { edits?: number; output?: string }) => {
      const edits = o.edits ?? 10;
      const ws = workspaceOf(o);
      const snapshot = await snapshotOf(ws, { ledger, edits });
      const { renderPrompt } = await import('../../render/text/render-prompt.js');
      await emit(ws, o, { ledger: snapshot.ledger, revision: snapshot.revision, format: 'text' }, renderPrompt(snapshot, { edits }));
    });
}
