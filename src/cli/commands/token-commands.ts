import type { Command } from 'commander';
import { CanvasError } from '../../model/canvas-error.js';
import { withGlobal } from '../common-options.js';
import { type GlobalOptions, workspaceOf } from '../context.js';
import { printJson } from '../output.js';

/** Register `canvas token add <who>`, `canvas token list` and `canvas token revoke <who|id>` (docs/mcp.md, "Over HTTP"). */
export function registerTokenCommands(program: Command): void {
  withGlobal(program.command('token'))
    .description('add, list or revoke the agents’ bearer tokens of canvas serve’s /mcp; each names its who (docs/mcp.md, "Over HTTP")')
    .argument('<action>', 'add (then the who), list, or revoke (then a who or a token id)')
    .argument('[who]', 'for add: the identity the token acts as; for revoke: a who (all its tokens) or a token id')
    .addHelpText(
      'after',
      [
        '',
        'add prints the token once; only its hash is kept (under .git, outside the canvas history).',
        'A token’s who still needs its role on each canvas (canvas grant).',
        '',
        'Examples:',
        '  canvas token add planner',
        '  canvas token list --json',
        '  canvas token revoke planner',
      ].join('\n'),
    )
    .action(async (action: string, who: string | undefined, o: GlobalOptions) => {
      const tokens = await import('../../store/repo/agent-tokens.js');
      const ws = workspaceOf(o);
      if (action === 'add' && who !== undefined) {
        const added = await tokens.addAgentToken(ws, who);
        if (o.json) printJson(added);
        else process.stdout.write(`${added.token}\ntoken ${added.id} for ${added.who}: shown once, only its hash is kept; send it as Authorization: Bearer <token>\n`);
        return;
      }
      if (action === 'revoke' && who !== undefined) {
        const gone = await tokens.revokeAgentToken(ws, who);
        if (o.json) printJson({ revoked: gone });
        else for (const t of gone) process.stdout.write(`revoked token ${t.id} of ${t.who}\n`);
        return;
      }
      if (action === 'list' && who === undefined) {
        const list = tokens.listAgentTokens(ws);
        if (o.json) printJson({ tokens: list });
        else if (list.length === 0) process.stdout.write('no agent tokens: canvas token add <who>\n');
        else for (const t of list) process.stdout.write(`${t.id}  ${t.who}  ${t.created}\n`);
        return;
      }
      throw new CanvasError(
        'USAGE',
        `canvas token takes "add <who>", "list" or "revoke <who|id>", not "${[action, who].filter(Boolean).join(' ')}"`,
        'canvas token add planner, canvas token list, or canvas token revoke planner',
      );
    });
}
