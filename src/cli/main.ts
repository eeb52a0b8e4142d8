import { Command, CommanderError } from 'commander';
import { CanvasError, exitCodeFor } from '../model/canvas-error.js';
import { registerAccessCommands } from './commands/access-commands.js';
import { registerBuildCommand } from './commands/build-command.js';
import { registerImportCommand } from './commands/import-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerPublishCommand } from './commands/publish-command.js';
import { registerReadCommands } from './commands/read-commands.js';
import { registerRenderCommands } from './commands/render-commands.js';
import { registerVerifyCommand } from './commands/verify-command.js';
import { registerWriteCommands } from './commands/write-commands.js';
import { printError } from './output.js';

const VERSION = '0.1.0';

/** Build the `canvas` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('canvas')
    .description('One structured canvas per task: edited one node at a time, every edit a git commit with a reason.')
    .version(VERSION)
    .showHelpAfterError(false)
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .exitOverride();
  program.addHelpText(
    'after',
    '\nExit codes: 0 applied or proposed, 1 internal error, 2 rejected or usage, 3 conflict, 4 verify found a violation, 5 no role.\nDocs: docs/cli.md, docs/errors.md',
  );
  registerWriteCommands(program);
  registerReadCommands(program);
  registerVerifyCommand(program);
  registerAccessCommands(program);
  registerImportCommand(program);
  registerBuildCommand(program);
  registerMcpCommand(program);
  registerRenderCommands(program);
  registerPublishCommand(program);
  for (const c of program.commands) c.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
  return program;
}

/**
 * Run the CLI: parse, call one store/render/site function, print; the single catch maps an
 * error's code to its exit code (STYLE habit 5).
 */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  if (argv.length === 0) {
    process.stderr.write(buildProgram().helpInformation());
    return 2;
  }
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      const before = e.code === 'commander.unknownOption' && argv.findIndex((a) => a.startsWith('-')) < argv.findIndex((a) => !a.startsWith('-'));
      const err = new CanvasError(
        'USAGE',
        e.message.replace(/^error: /, ''),
        before ? 'options go after the command: canvas <command> --workspace DIR ...' : 'run `canvas --help` or `canvas <command> --help`',
      );
      printError(err, json);
      return 2;
    }
    if (e instanceof CanvasError) {
      printError(e, json);
      return exitCodeFor(e.kind);
    }
    const err = new CanvasError('INTERNAL', (e as Error)?.stack ?? String(e), 'this is a bug; please report it with the command that caused it');
    printError(err, json);
    return 1;
  }
}
