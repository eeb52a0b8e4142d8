import { basename } from 'node:path';
import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { withWrite } from '../common-options.js';
import { authorOf, type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';
import { readInputFile } from '../read-input-file.js';

interface ImportOptions extends GlobalOptions {
  markdown: string;
  why?: string;
  idempotencyKey?: string;
}

/** Register `canvas import <ledger> --markdown FILE --why R` (docs/import.md; docs/cli.md). */
export function registerImportCommand(program: Command): void {
  withWrite(program.command('import'))
    .description('birth a canvas from a Markdown decision record, one commit per node (mapping: docs/import.md)')
    .argument('<ledger>', 'the ledger id of the new canvas')
    .requiredOption('--markdown <file>', 'the Markdown file to import (a regular file, or - for standard input; strict UTF-8)')
    .action(async (ledger: string, o: ImportOptions) => {
      if (o.idempotencyKey !== undefined) {
        throw new CanvasError('USAGE', 'canvas import does not take --idempotency-key: it is many writes, and a second import of the same ledger is refused with CANVAS_EXISTS', 'leave out --idempotency-key');
      }
      const markdown = readInputFile(o.markdown, '--markdown');
      // Lazy: the Markdown parser is loaded only by this command (canvas read stays light).
      const { importMarkdown } = await import('../../import/import-markdown.js');
      const result = await importMarkdown(workspaceOf(o), {
        ledger,
        markdown,
        why: o.why ?? '',
        author: authorOf(o),
        source: o.markdown === '-' ? 'standard input' : basename(o.markdown),
      });
      if (o.json) {
        printJson(result);
        return;
      }
      const out = process.stdout;
      out.write(`imported ${basename(o.markdown)} as canvas ${result.ledger}: ${result.nodes.length} node(s)\n`);
      out.write(`Canvas-Base: ${result.revision}\n`);
      if (result.flattened.length > 0) {
        out.write(`flattened (${result.flattened.length}, see docs/import.md):\n`);
        for (const f of result.flattened) out.write(`  line ${f.line}: ${f.what}\n`);
      }
    });
}
