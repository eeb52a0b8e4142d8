import { Command, CommanderError } from 'commander';
import { CanvasError, EXIT_CODES, exitCodeFor } from '../model/canvas-error.js';
import { noSpace } from '../store/files/no-space.js';
import { permissionDenied } from '../store/files/permission-denied.js';
import { readPackageVersion } from '../store/files/read-package-version.js';
import { COMMAND_GROUP_NAMES, type CommandGroup } from './command-names.js';
import { registerAccessCommands } from './commands/access-commands.js';
import { registerBuildCommand } from './commands/build-command.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerCheckCommand } from './commands/check-command.js';
import { registerCompletionCommands } from './commands/completion-command.js';
import { registerHelpCommand } from './commands/help-command.js';
import { registerImportCommand } from './commands/import-command.js';
import { registerEdgesCommand } from './commands/edges-command.js';
import { registerListCommand } from './commands/list-command.js';
import { registerDeskCommand } from './commands/desk-command.js';
import { registerSearchCommand } from './commands/search-command.js';
import { registerTokenCommands } from './commands/token-commands.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerHookCommand } from './commands/hook-command.js';
import { registerPublishCommand } from './commands/publish-command.js';
import { registerReadCommands } from './commands/read-commands.js';
import { registerRenderCommands } from './commands/render-commands.js';
import { registerRemoteCommands } from './commands/remote-commands.js';
import { registerVerifyCommand } from './commands/verify-command.js';
import { registerWatchCommands } from './commands/watch-commands.js';
import { registerWriteCommands } from './commands/write-commands.js';
import { onRefRepair } from '../store/repo/rebuild-canvas-refs.js';
import { helpAfter } from './help-texts.js';
import { printError, refRepairLine } from './output.js';
import { isQuiet, startQuiet } from './quiet.js';

/** The function registering each group of commands (every group of `COMMAND_GROUP_NAMES`). */
const REGISTER: { readonly [G in CommandGroup]: (program: Command) => void } = {
  write: registerWriteCommands,
  read: registerReadCommands,
  list: registerListCommand,
  desk: registerDeskCommand,
  search: registerSearchCommand,
  edges: registerEdgesCommand,
  watch: registerWatchCommands,
  verify: registerVerifyCommand,
  remote: registerRemoteCommands,
  access: registerAccessCommands,
  import: registerImportCommand,
  build: registerBuildCommand,
  mcp: registerMcpCommand,
  hook: registerHookCommand,
  render: registerRenderCommands,
  publish: registerPublishCommand,
  check: registerCheckCommand,
  serve: registerServeCommand,
  token: registerTokenCommands,
  completion: (program) => registerCompletionCommands(program, () => buildProgram(undefined, 'completion')),
  help: (program) => registerHelpCommand(program, () => buildProgram()),
};

/** Commands whose standard output is a protocol (serve's is its URL): `--quiet` drops their notices only. */
const STDOUT_IS_PROTOCOL = new Set(['mcp', 'serve']);

/**
 * Every group of commands with the names it registers. A run that names a command registers only
 * its group (commander's set-up of every command is a measurable part of a read's start-up); a
 * run that names none, or one not listed here, registers them all.
 */
export const COMMAND_GROUPS: ReadonlyArray<readonly [register: (program: Command) => void, names: readonly string[]]> = (Object.keys(COMMAND_GROUP_NAMES) as CommandGroup[]).map(
  (group) => [REGISTER[group], COMMAND_GROUP_NAMES[group]] as const,
);

/**
 * Build the `canvas` program.
 *
 * @param command - the command the run names (its first argument): only that command's group is
 *   registered; omitted or unknown, every command is
 * @param without - a group left out (the completer builds the program without its own commands)
 */
export function buildProgram(command?: string, without?: CommandGroup): Command {
  const program = new Command('canvas')
    .description('One structured canvas per task: edited one node at a time, every edit a git commit with a reason.')
    .version(readPackageVersion())
    .showHelpAfterError(false)
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .exitOverride();
  program.addHelpText(
    'after',
    '\nExit codes: 0 applied or proposed, 1 internal error, 2 rejected or usage, 3 conflict, 4 verify found a violation, 5 no role, 6 the model could not be asked, 7 its reply was refused (check), 8 a build where some canvases failed.\nEnvironment: canvas help environment. Completion: canvas completion bash|zsh|fish|powershell.\nDocs: docs/cli.md, docs/errors.md',
  );
  const only = command === undefined ? undefined : COMMAND_GROUPS.find(([, names]) => names.includes(command));
  const groups = only ? [only] : COMMAND_GROUPS.filter(([register]) => without === undefined || register !== REGISTER[without]);
  for (const [register] of groups) register(program);
  // The habits every command has (docs/cli.md, "Every command"), added here so that none is missed.
  for (const c of program.commands) {
    c.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
    c.option('-q, --quiet', 'print nothing but errors: the exit code tells the outcome');
    const after = helpAfter(c.name());
    if (after) c.addHelpText('after', after);
  }
  return program;
}

/**
 * An error that is not a CanvasError, as `INTERNAL` (docs/errors.md): its message alone, and the
 * stack trace only when `CANVAS_DEBUG=1` asks for it.
 */
function internalError(e: unknown): CanvasError {
  const debug = process.env.CANVAS_DEBUG === '1';
  const text = e instanceof Error ? (debug && e.stack ? e.stack : e.message || String(e)) : String(e);
  return new CanvasError(
    'INTERNAL',
    text,
    debug ? 'this is a bug; please report it with the command that caused it' : 'this is a bug; run it again with CANVAS_DEBUG=1 for the stack trace and report it with the command',
  );
}

/**
 * Run the CLI: parse, call one store/render/site function, print; the single catch maps an
 * error's code to its exit code (docs/cli.md, "Exit codes").
 */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  // A harness's hook fails open (docs/agents.md): a refusal is said on stderr and the exit is 0,
  // since a hook that fails blocks a person's session (Claude Code blocks a prompt on exit 2).
  // With --json a script gets the code and its exit code.
  const exit = (code: number): number => (argv[0] === 'hook' && !json ? EXIT_CODES.ok : code);
  if (argv.length === 0) {
    process.stderr.write(buildProgram().helpInformation());
    return EXIT_CODES.rejected;
  }
  // Node decoded the arguments already, turning bytes that are not UTF-8 into U+FFFD: such an
  // argument is refused before anything, as a payload file's bytes are (docs/cli.md, "Limits").
  const garbled = argv.findIndex((a) => a.includes('\uFFFD'));
  if (garbled >= 0) {
    printError(
      new CanvasError(
        'BAD_ENCODING',
        `argument ${garbled + 1} (${JSON.stringify(argv[garbled]!.slice(0, 60))}) is not well-formed UTF-8: it holds U+FFFD, what the system made of bytes that are not UTF-8`,
        "pass the argument as UTF-8 (check the terminal's or the caller's encoding); a literal U+FFFD is refused too",
        { argument: garbled + 1 },
      ),
      json,
    );
    return exit(EXIT_CODES.rejected);
  }
  // The store never prints; a command that rebuilt canvas refs from main says so once, here.
  const stopListening = onRefRepair((repairs) => {
    if (!isQuiet()) process.stderr.write(refRepairLine(repairs));
  });
  let stopQuiet = () => {};
  try {
    const program = buildProgram(argv[0]);
    program.hook('preAction', (_program, action) => {
      if (action.opts().quiet === true) stopQuiet = startQuiet(STDOUT_IS_PROTOCOL.has(action.name()));
    });
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT_CODES.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT_CODES.ok;
      const before = e.code === 'commander.unknownOption' && argv.findIndex((a) => a.startsWith('-')) < argv.findIndex((a) => !a.startsWith('-'));
      const err = new CanvasError('USAGE', e.message.replace(/^error: /, ''), before ? 'options go after the command: canvas <command> --workspace DIR ...' : 'run `canvas --help` or `canvas <command> --help`');
      printError(err, json);
      return exit(exitCodeFor(err.kind));
    }
    if (e instanceof CanvasError) {
      printError(e, json);
      return exit(exitCodeFor(e.kind));
    }
    const err = noSpace(e) ?? permissionDenied(e) ?? internalError(e);
    printError(err, json);
    return exit(exitCodeFor(err.kind));
  } finally {
    stopQuiet();
    stopListening();
  }
}
