import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { NODE_TYPES } from '../../model/types.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson, useColor } from '../output.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Register search (docs/cli.md, "search"; docs/search.md). */
export function registerSearchCommand(program: Command): void {
  withGlobal(program.command('search'))
    .description('find nodes over the current revision of every canvas: ledger, node, type, a snippet, the revision to write against; best first')
    .argument('<query...>', 'the words to find (the last also as the start of a word); several arguments are one query')
    .option('--ledger <ledger>', 'only this canvas')
    .option('--type <type>', `only nodes of this type (repeatable): ${NODE_TYPES.join(', ')}`, collect)
    .option('--limit <n>', 'at most this many hits (default 20)', (v) => {
      if (!/^[1-9][0-9]{0,5}$/.test(v)) throw new CanvasError('USAGE', `--limit ${v} is not a positive whole number`, 'for example --limit 50');
      return Number(v);
    })
    .addHelpText('after', '\nRanking, snippet and the index cache: docs/search.md.')
    .action(async (words: string[], o: GlobalOptions & { ledger?: string; type?: string[]; limit?: number }) => {
      const { searchCanvases } = await import('../../store/search/search-canvases.js');
      const found = await searchCanvases(workspaceOf(o), { query: words.join(' '), ledger: o.ledger, types: o.type, limit: o.limit });
      if (o.json) {
        printJson(found);
        return;
      }
      const { searchLines } = await import('../search-lines.js');
      process.stdout.write(searchLines(found, useColor(process.stdout)));
    });
}
