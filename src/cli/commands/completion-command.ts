import { format } from 'node:util';
import { Argument, type Command } from 'commander';

/** The shells a completion script is printed for. */
const SHELLS = ['bash', 'zsh', 'fish', 'powershell'];

/**
 * The completer of `@bomb.sh/tab` for every command of the program (loaded only by these two
 * commands): it reads the commands, options, arguments and choices from commander itself.
 */
async function completer(full: () => Command) {
  const loaded = await import('@bomb.sh/tab/commander');
  // From the CLI's CommonJS bundle the import is a require() of an ES module, whose namespace
  // the bundler's interop hands over as `default` itself; from ES modules, `default` is the function.
  const inner = loaded.default as unknown as { default?: typeof loaded.default };
  const tab = typeof loaded.default === 'function' ? loaded.default : inner.default!;
  return tab(full(), { completionCommandName: 'completion' });
}

/**
 * Run `fn` with `console.log` writing to `process.stdout` (the library prints with it), so that
 * what it prints goes where every command's output goes, whoever has replaced `console`.
 */
function toStdout(fn: () => void): void {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    process.stdout.write(`${format(...args)}\n`);
  };
  try {
    fn();
  } finally {
    console.log = log;
  }
}

/**
 * Register `canvas completion <shell>` (docs/cli.md, "Completion"), which prints the shell's
 * completion script, and the hidden `canvas complete -- <words>` that script runs to ask for the
 * words that may come next.
 *
 * @param program - the program to register on
 * @param full - builds the program with every command except these two (the library adds its own)
 */
export function registerCompletionCommands(program: Command, full: () => Command): void {
  program
    .command('completion')
    .description('print a completion script for bash, zsh, fish or powershell: commands, options and their choices')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action(async (shell: string) => {
      const root = await completer(full);
      toStdout(() => root.setup('canvas', 'canvas', shell));
    });
  program
    .command('complete', { hidden: true })
    .description('what a completion script runs: the words that may come next, for `canvas complete -- <words>`')
    .argument('[words...]', 'the command line so far, after canvas')
    .allowUnknownOption()
    .action(async (words: string[]) => {
      const root = await completer(full);
      toStdout(() => root.parse(words));
    });
}
