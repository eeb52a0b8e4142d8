import { CanvasError } from '../model/canvas-error.js';
import { noRoleHint, ownersOf } from './require-viewer.js';
import type { ServerContext } from './server-context.js';

/** `see \`canvas access <ledger>\``: the grants, which no tool shows; over MCP, the owners who hold them. */
const SEE_ACCESS = /see `canvas access ([a-z0-9][a-z0-9._-]{0,63})`/;

/**
 * Say a refusal's fix in what an MCP caller can do (docs/errors.md, "Hints over MCP"), where the
 * command line's words have no tool to say them with: `NO_ROLE` names the canvas's owners and
 * the `canvas_grant` call one of them would make; `NOT_WATCHING` names the tools that show and
 * start a watch; a hint that sends the reader to `canvas access` names the owners instead. Every
 * other refusal's hint is translated word for word (mcp-hint.ts).
 *
 * @param ctx - the server's workspace and identity
 * @param e - what a tool threw
 * @returns the refusal with its hint for an MCP caller, or `e` as it was
 */
export async function explainRefusal(ctx: ServerContext, e: unknown): Promise<unknown> {
  if (!(e instanceof CanvasError)) return e;
  const data = e.data as { who?: unknown; ledger?: unknown; needed?: unknown };
  const owners = async (ledger: string) => {
    try {
      return await ownersOf(ctx, ledger);
    } catch {
      return [];
    }
  };
  let hint: string | null = null;
  if (e.code === 'NO_ROLE' && typeof data.ledger === 'string' && typeof data.who === 'string') {
    hint = noRoleHint(data.ledger, await owners(data.ledger), data.who, String(data.needed ?? 'viewer'));
  } else if (e.code === 'NOT_WATCHING' && typeof data.ledger === 'string') {
    hint = `you do not watch ${data.ledger}: canvas_inbox shows the canvases you watch, and canvas_watch with ledger ${data.ledger} starts watching it`;
  } else {
    const access = SEE_ACCESS.exec(e.hint);
    if (access) hint = e.hint.replace(SEE_ACCESS, `its owners: ${(await owners(access[1]!)).join(', ') || 'none'}`);
  }
  return hint === null ? e : new CanvasError(e.code, e.message, hint, e.data);
}
