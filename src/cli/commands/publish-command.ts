import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import type { PublishResult } from '../../publish/publish-comment.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';
import { readInputFile } from '../read-input-file.js';

interface PublishFlags extends GlobalOptions {
  rowBody?: string;
  commentUrl?: string;
  account?: string;
  bucket?: string;
  comment?: string;
  recording?: string;
  recreate?: boolean;
  force?: boolean;
  dryRun?: boolean;
  userAgent?: string;
}

/**
 * The row body, read as a payload file is (docs/cli.md, "Payload files"): a regular file or `-`,
 * so a named pipe nobody writes to is refused at once instead of blocking.
 *
 * @throws CanvasError `ROW_BODY_REQUIRED` (missing or unreadable), `USAGE` (not a regular file),
 *   `TOO_LARGE`, `BAD_ENCODING`
 */
function readRowBody(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readInputFile(path, '--row-body');
  } catch (e) {
    if (!(e instanceof CanvasError) || e.code !== 'USAGE' || e.data.rule === 'regular-file') throw e;
    throw new CanvasError('ROW_BODY_REQUIRED', e.message, 'pass a readable file with the Markdown the row writes to its comment, or - for standard input', {
      path,
    });
  }
}

function revisionLine(r: PublishResult): string {
  return `revision: ${r.revision ?? 'none (the task has no canvas; the row body alone)'}\n`;
}

function print(r: PublishResult): void {
  const out = process.stdout;
  const c = r.comment;
  switch (r.outcome) {
    case 'created':
      out.write(`created comment ${c?.id}${c?.recording ? ` on to-do ${c.recording}` : ''}\n${c?.appUrl ?? ''}\n${revisionLine(r)}`);
      break;
    case 'updated':
      out.write(`updated comment ${c?.id} in place\n${c?.appUrl ?? ''}\n${revisionLine(r)}`);
      break;
    case 'unchanged':
      out.write(`unchanged: comment ${c?.id} already shows this content; nothing sent\n${c?.appUrl ?? ''}\n${revisionLine(r)}`);
      break;
    case 'dry-run': {
      out.write(`${r.html ?? ''}\n`);
      const what =
        r.wouldSend === 'create'
          ? 'would create the comment'
          : r.wouldSend === 'update'
            ? `would update comment ${c?.id}`
            : r.wouldSend === 'nothing'
              ? `would send nothing: comment ${c?.id} already shows this content`
              : 'no comment or to-do is known yet';
      process.stderr.write(`dry run: ${what}; nothing sent\n`);
      break;
    }
  }
  if (r.note) process.stderr.write(`note: ${r.note}\n`);
}

/** Register `canvas publish` (docs/basecamp.md; docs/projections.md "The comment"). */
export function registerPublishCommand(program: Command): void {
  withGlobal(program.command('publish'))
    .description("write the ledger row's Basecamp comment: the row's body, then the canvas; created once, then updated in place")
    .argument('<ledger>', 'the ledger id')
    .option('--row-body <file>', "the row's own Markdown (required; - reads standard input): it comes first, the canvas follows")
    .option('--comment-url <url>', 'the comment: its API URL or its web URL (…/todos/T#__recording_C)')
    .option('--account <id>', 'the Basecamp account id')
    .option('--bucket <id>', 'the project (bucket) id; without it the flat routes are used')
    .option('--comment <id>', 'the comment id')
    .option('--recording <id|url>', 'the to-do to create the comment on at the first publish')
    .option('--recreate', 'the recorded comment is gone on Basecamp: check that, then create a fresh one on the to-do')
    .option('--force', 'send even when the comment already shows this content')
    .option('--dry-run', 'print the HTML that would be sent; send nothing, write nothing')
    .option('--user-agent <ua>', 'the User-Agent Basecamp requires: "name (contact)" (else $BASECAMP_USER_AGENT, else "canvas ($BASECAMP_CONTACT)")')
    .addHelpText('after', '\nEnvironment: BASECAMP_ACCESS_TOKEN (required to send), BASECAMP_API_URL (default https://3.basecampapi.com), BASECAMP_USER_AGENT or BASECAMP_CONTACT.\nDocs: docs/basecamp.md')
    .action(async (ledger: string, o: PublishFlags) => {
      const rowBody = readRowBody(o.rowBody);
      const { publishComment } = await import('../../publish/publish-comment.js');
      const result = await publishComment(workspaceOf(o), {
        ledger,
        rowBody,
        target: { commentUrl: o.commentUrl, account: o.account, bucket: o.bucket, comment: o.comment, recording: o.recording },
        dryRun: o.dryRun === true,
        force: o.force === true,
        recreate: o.recreate === true,
        ...(o.userAgent !== undefined ? { userAgent: o.userAgent } : {}),
      });
      if (o.json) printJson(result);
      else print(result);
    });
}
