import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { environmentHelp } from '../environment.js';

/**
 * Register `canvas help [topic]` (docs/cli.md, "Help"): `environment` lists every environment
 * variable the tool reads; a command's name prints that command's help; nothing, the overview.
 * It replaces commander's own help command, which knows only commands.
 *
 * @param program - the program to register on
 * @param full - builds the program with every command (a run of `help` registers only this one)
 */
export function registerHelpCommand(program: Command, full: () => Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('print help: the overview, a command\'s, or "environment" (every environment variable canvas reads)')
    .argument('[topic]', 'a command, or environment')
    .action((topic: string | undefined) => {
      if (topic === 'environment') {
        process.stdout.write(environmentHelp());
        return;
      }
      const all = full();
      if (topic === undefined) {
        all.outputHelp();
        return;
      }
      const command = all.commands.find((c) => c.name() === topic);
      if (!command) {
        throw new CanvasError('USAGE', `no help on ${JSON.stringify(topic)}: not a command, nor environment`, 'run `canvas help` for the commands, or `canvas help environment`', {
          topic,
        });
      }
      command.outputHelp();
    });
}
