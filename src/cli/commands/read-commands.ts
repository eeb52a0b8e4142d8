import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { NODE_TYPES as TYPES, type NodeType } from '../../model/types.js';
import { canvasLog } from '../../store/read/canvas-log.js';
import { nodeHistory } from '../../store/read/node-history.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';
import { writeStdout } from '../write-stdout.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

// The reads here are light (one git cat-file --batch) and part of the CLI's entry file. `read`
// prints only what a write would accept: bytes the store did not write itself are parsed and
// checked first (docs/store.md, "Reads"); the parser is initialised only when it runs, so that
// `history`, `log` and a read of store-written bytes never run it.

/** Register read, history and log (docs/cli.md). */
export function registerReadCommands(program: Command): void {
  withGlobal(program.command('read'))
    .description('print the canvas with its Canvas-Base: line (the sha to write against)')
    .argument('<ledger>', 'the ledger id')
    .option('--id <node>', 'only this node (repeatable)', collect)
    .option('--type <type>', `only nodes of this type (repeatable): ${TYPES.join(', ')}`, collect)
    .option('--at <sha>', 'the canvas as it stood at this commit')
    .option('--fetch', "sync with the shared remote first, so the read is the remote's latest (docs/remote.md)")
    .action(async (ledger: string, o: GlobalOptions & { id?: string[]; type?: string[]; at?: string; fetch?: boolean }) => {
      for (const t of o.type ?? []) {
        if (!TYPES.includes(t as NodeType)) {
          throw new CanvasError('USAGE', `--type ${t} is not a node type`, `use one of ${TYPES.join(', ')}`);
        }
      }
      if (o.fetch) {
        const { syncWorkspace } = await import('../../store/remote/sync-workspace.js');
        await syncWorkspace(workspaceOf(o));
      }
      if (o.id || o.type) {
        const { readNodes } = await import('../../store/read/read-nodes.js');
        const read = await readNodes(workspaceOf(o), { ledger, at: o.at, ids: o.id, types: o.type as NodeType[] | undefined });
        if (o.json) {
          printJson(read);
          return;
        }
        process.stdout.write(`Canvas-Base: ${read.revision}\n${read.nodes.map((n) => n.xml).join('')}`);
        return;
      }
      const { readCanvasText, readCheckedCanvas } = await import('../../store/read/read-canvas-text.js');
      if (!o.json) {
        const read = await readCanvasText(workspaceOf(o), { ledger, at: o.at });
        writeStdout(`Canvas-Base: ${read.revision}\n${read.xml}`);
        return;
      }
      const read = await readCheckedCanvas(workspaceOf(o), { ledger, at: o.at });
      printJson({ ledger: read.ledger, revision: read.revision, xml: read.xml, canvas: read.canvas });
    });

  withGlobal(program.command('history'))
    .description("a node's commits, oldest first, spanning moves (trailer equality, never a substring)")
    .argument('<ledger>', 'the ledger id')
    .argument('<node>', 'the node id')
    .action(async (ledger: string, node: string, o: GlobalOptions) => {
      const entries = await nodeHistory(workspaceOf(o), { ledger, node });
      if (o.json) {
        printJson({ ledger, node, commits: entries });
        return;
      }
      let out = `Canvas-Node: ${node}\n`;
      for (const e of entries) {
        out += `\nCanvas-Commit: ${e.commit}\nCanvas-Author: ${e.author}\n`;
        if (e.proposedBy) out += `Canvas-Proposed-By: ${e.proposedBy}\n`;
        if (e.proposedWhy) out += `Canvas-Proposed-Why: ${e.proposedWhy}\n`;
        out += `${e.op}: ${e.reason}\n`;
      }
      process.stdout.write(out);
    });

  withGlobal(program.command('log'))
    .description("the canvas's commits, newest first")
    .argument('<ledger>', 'the ledger id')
    .option('-n, --max-count <n>', 'at most this many', (v) => {
      if (!/^[1-9][0-9]*$/.test(v)) throw new CanvasError('USAGE', `-n ${v} is not a positive integer`, 'for example -n 10');
      return Number(v);
    })
    .action(async (ledger: string, o: GlobalOptions & { maxCount?: number }) => {
      const entries = await canvasLog(workspaceOf(o), { ledger, limit: o.maxCount });
      if (o.json) {
        printJson({ ledger, commits: entries });
        return;
      }
      process.stdout.write(entries.map((e) => `${e.commit.slice(0, 12)} ${e.date.slice(0, 19)}Z ${e.op}${e.node ? ` ${e.node}` : ''} by ${e.author}: ${e.reason}\n`).join(''));
    });
}
