import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { join } from 'node:path';
import { Argument, type Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import type { Workspace } from '../../store/repo/workspace.js';
import { withGlobal } from '../common-options.js';
import { authorOf, type GlobalOptions, workspaceOf } from '../context.js';
import { HARNESSES, type Harness, type HookCall, hookOutput, readHookCall } from '../hook-input.js';
import { readInputFile } from '../read-input-file.js';
import { show } from '../show.js';

/** The file in the working directory that names a project's canvas (docs/agents.md, "Which canvas"). */
const LEDGER_FILE = '.canvas-ledger';

/** The options of `canvas hook`. */
interface HookOptions extends GlobalOptions {
  ledger?: string;
  session?: string;
}

/**
 * The canvas a hook serves (docs/agents.md, "Which canvas"): `--ledger`, else `$CANVAS_LEDGER`,
 * else the first line of `.canvas-ledger` in the working directory the harness names (else this
 * process's) that is neither blank nor a `#` comment.
 *
 * @throws CanvasError `NO_LEDGER` when none of the three names one
 */
function ledgerOf(o: HookOptions, cwd: string | undefined): string {
  if (o.ledger !== undefined) return o.ledger;
  const fromEnv = process.env.CANVAS_LEDGER;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const file = join(cwd ?? process.cwd(), LEDGER_FILE);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No file: said below.
  }
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (line !== undefined) return line;
  throw new CanvasError(
    'NO_LEDGER',
    `canvas hook found no canvas to give: no --ledger, no CANVAS_LEDGER, and no ledger id in ${file}`,
    `write the ledger id into ${file} (echo fix-login > ${LEDGER_FILE}), or pass --ledger <id>`,
    { file },
  );
}

/** The whole prompt projection, as `canvas render --format prompt` prints it. */
async function wholePrompt(ws: Workspace, ledger: string): Promise<{ text: string; revision: string }> {
  const [{ readSnapshot }, { renderPrompt }] = await Promise.all([import('../../store/read/read-snapshot.js'), import('../../render/text/render-prompt.js')]);
  const snapshot = await readSnapshot(ws, { ledger });
  return { text: renderPrompt(snapshot), revision: snapshot.revision };
}

/**
 * What the session gets now (docs/agents.md, "What a session gets"): at its start, the whole
 * prompt; at a prompt, what changed since the session's cursor (the whole prompt when it has
 * none, or it is lost), others' edits only, or nothing.
 *
 * @returns the text to add (null: nothing) and the revision the cursor moves to (null: it stays)
 */
async function contextFor(ws: Workspace, call: HookCall, ledger: string, who: string): Promise<{ text: string | null; revision: string | null }> {
  const { readSessionCursor } = await import('../../store/watch/session-cursor.js');
  const since = call.event === 'prompt-submit' ? readSessionCursor(ws, call.session, ledger) : null;
  if (since === null) return wholePrompt(ws, ledger);
  const { readChangesSince } = await import('../../store/read/read-changes-since.js');
  const changes = await readChangesSince(ws, { ledger, since });
  if (!changes.changed) return { text: null, revision: null };
  if ('lost' in changes) return wholePrompt(ws, ledger);
  // The session's own edits are not news to it (docs/agents.md, "What a session gets").
  const edits = who === '' ? changes.edits : changes.edits.filter((e) => e.author.split(' | ')[0] !== who);
  if (edits.length === 0) return { text: null, revision: changes.revision };
  const { renderPromptChanges } = await import('../../render/text/render-prompt-changes.js');
  return { text: renderPromptChanges({ ledger: changes.ledger, revision: changes.revision, since, canvas: changes.canvas, edits }), revision: changes.revision };
}

/**
 * Register `canvas hook` (docs/cli.md, "hook"; docs/agents.md): the command a harness runs at a
 * session's start and before each prompt, printing the context the harness adds. It fails open:
 * without `--json` every refusal is a line on stderr and exit 0 (`main.ts`), so a hook that cannot
 * find or read the canvas never blocks a person's session.
 */
export function registerHookCommand(program: Command): void {
  withGlobal(program.command('hook'))
    .description("a harness's hook: read its input on stdin, print the canvas as context at a session's start and what changed since before each prompt")
    .addArgument(new Argument('<harness>', 'claude-code (Claude Code hooks) or copilot (the GitHub Copilot SDK)').choices(HARNESSES))
    .argument('[event]', 'copilot only: session-start or user-prompt-submitted (Claude Code names it in its input)')
    .option('--ledger <id>', `the canvas (else $CANVAS_LEDGER, else the first line of ${LEDGER_FILE} in the working directory)`)
    .option('--session <id>', "copilot only: the session id (the handler's invocation.sessionId)")
    .action(async (harness: Harness, event: string | undefined, o: HookOptions) => {
      if (isatty(0)) {
        throw new CanvasError(
          'HOOK_INPUT',
          `canvas hook ${harness} reads the hook's input on standard input, which is a terminal`,
          'run it as the harness\'s hook (docs/agents.md), or pipe the input: echo \'{"hook_event_name":"SessionStart","session_id":"s1"}\' | canvas hook claude-code',
          { harness },
        );
      }
      const call = readHookCall(harness, readInputFile('-', 'standard input'), event, o.session);
      const ledger = ledgerOf(o, call.cwd);
      const ws = workspaceOf(o);
      const { text, revision } = await contextFor(ws, call, ledger, authorOf(o).split(' | ')[0]!.trim());
      if (text !== null) await show(hookOutput(harness, call, text));
      if (revision === null) return;
      const { saveSessionCursor } = await import('../../store/watch/session-cursor.js');
      try {
        saveSessionCursor(ws, call.session, ledger, revision);
      } catch (e) {
        // What was given stays given; the next prompt gives the canvas again, whole.
        const why = e instanceof CanvasError ? `${e.code}: ${e.message}` : (e as Error).message;
        process.stderr.write(`canvas hook: the session's cursor was not saved (${why}); the next prompt gives the whole canvas again\n`);
      }
    });
}
