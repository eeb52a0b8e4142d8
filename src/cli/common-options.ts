import { type Command, Option } from 'commander';

/** Add the options every command takes: --workspace, --author, --json (docs/cli.md). */
export function withGlobal(cmd: Command): Command {
  return cmd
    .option('--workspace <dir>', 'the workspace (else $CANVAS_WORKSPACE, else $OPENCLAW_WORKSPACE)')
    .option('--author <author>', 'who writes: "<who>[ | step:<step>][ | run:<run>]" or "<who> | by-hand" (else $CANVAS_AUTHOR)')
    .option('--json', 'print one JSON object for programs');
}

/** Add the options of writes: --why, --idempotency-key. */
export function withWrite(cmd: Command): Command {
  return withGlobal(cmd).option('--why <reason>', 'the reason: one plain line that says why (required)').option('--idempotency-key <key>', 'a retry with the same key and request returns the first outcome');
}

/** Add the options of node edits: --base, --require. */
export function withEdit(cmd: Command): Command {
  return withWrite(cmd)
    .option('--base <sha>', 'the Canvas-Base: sha you decided against (from canvas read)')
    .option('--require <sha>', 'strict: refuse if anything in this canvas changed since <sha> (implies --base)');
}

/** Add the payload options of insert and replace. */
export function withPayload(cmd: Command): Command {
  return cmd
    .addOption(new Option('--xml <fragment>', 'the node as one XML fragment, without id and v'))
    .addOption(new Option('--xml-file <path>', 'read the XML fragment from a regular file (for a large table), or - for standard input; strict UTF-8'))
    .addOption(new Option('--text <text>', 'sugar for <text>...</text>'))
    .addOption(new Option('--question <text>', 'sugar for <question>...</question>: the question is open unless --answered is given'))
    .addOption(new Option('--answered', 'with --question: mark the question answered (answered="true")'))
    .addOption(new Option('--section <title>', 'sugar for an empty <section title="..."></section>'))
    .addOption(new Option('--excalidraw-file <path>', 'a figure of kind excalidraw: the scene file as Excalidraw saves it (.excalidraw), or - for standard input'))
    .addOption(new Option('--caption <text>', "with --excalidraw-file: the figure's one-line caption"));
}
