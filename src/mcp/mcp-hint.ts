/**
 * Hints that speak MCP to an MCP caller (docs/errors.md, "Hints over MCP"). The store writes each
 * hint once, for the command line: it names the next command and its flags (`run \`canvas read
 * plan\` first and pass its Canvas-Base: sha as --base`). An MCP caller has tools and arguments
 * instead, so the server says the same fix in those words (`call canvas_read with ledger plan
 * first and pass its revision as \`base\``): a command becomes its tool, a flag its argument. Only
 * the hint is rewritten; the message says what was wrong and may quote the caller's own text, so
 * it is left as it is.
 */

/** The tool that does what a command does (docs/mcp.md, "The tools"). */
const TOOL_OF: Record<string, string> = {
  read: 'canvas_read',
  prompt: 'canvas_read',
  render: 'canvas_read',
  log: 'canvas_history',
  history: 'canvas_history',
  list: 'canvas_list',
  proposals: 'canvas_list_proposals',
  approve: 'canvas_approve_proposal',
  reject: 'canvas_reject_proposal',
  insert: 'canvas_insert',
  replace: 'canvas_replace',
  remove: 'canvas_remove',
  move: 'canvas_move',
  create: 'canvas_create',
  open: 'canvas_open',
  import: 'canvas_import',
  freeze: 'canvas_freeze',
  abandon: 'canvas_abandon',
  grant: 'canvas_grant',
  revoke: 'canvas_revoke',
  check: 'canvas_check',
  verify: 'canvas_verify',
  watch: 'canvas_watch',
  unwatch: 'canvas_unwatch',
  inbox: 'canvas_inbox',
  search: 'canvas_search',
  edges: 'canvas_edges',
};

/** The argument a flag is over MCP (the command line's name, camel-cased: docs/mcp.md "The tools"). */
function argumentOf(flag: string): string {
  // A call cannot name its author: the who is the server's identity.
  if (flag === 'author' || flag === 'as') return "the server's identity";
  return `\`${flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}\``;
}

const LEDGER = '[a-z0-9][a-z0-9._-]{0,63}';

/**
 * Say a command-line hint in MCP's words: each `canvas <verb> [<ledger>] ...` as the tool with
 * its arguments, each `--flag` as the argument.
 *
 * @param hint - a hint as the store wrote it
 * @returns the hint for an MCP caller, naming no flag
 */
export function mcpHint(hint: string): string {
  return (
    hint
      // canvas_read answers the revision to write against as `revision`, where `canvas read` prints a Canvas-Base: line.
      .replace(/its Canvas-Base: sha/g, 'its revision')
      .replace(/the latest Canvas-Base/g, 'the latest revision')
      .replace(/the sha from the Canvas-Base: line of/g, 'the revision of')
      // `canvas grant plan zed viewer --why "..."`: the grant, with its arguments named.
      .replace(new RegExp(`\`?canvas grant (${LEDGER}|<ledger>) (\\S+) (\\S+) --why "\\.\\.\\."\`?`, 'g'), 'canvas_grant with ledger $1, who $2, role $3 and a why')
      .replace(new RegExp(`\`?canvas revoke (${LEDGER}|<ledger>) (\\S+) --why "\\.\\.\\."\`?`, 'g'), 'canvas_revoke with ledger $1, who $2 and a why')
      // `canvas remove plan b7 --base <sha> --why "..."`: a node's edit, its node and flags named.
      .replace(
        new RegExp(`\`?canvas (remove|replace|move) (${LEDGER}) ([a-z][a-z0-9]{1,11})((?: --[a-z]+(?: "[^"]*"| [^\\s-]\\S*)?)*?) --base <sha> --why "\\.\\.\\."\`?`, 'g'),
        (_, verb: string, ledger: string, node: string, flags: string) => `${TOOL_OF[verb]} with ledger ${ledger}, node ${node}${flags.replace(/ --([a-z]+)/g, ', $1')}, your latest revision as base and a why`,
      )
      // `run \`canvas read plan\``, `canvas create plan --why "..."`, `canvas proposals plan`.
      .replace(
        new RegExp(`(run:? )?\`?canvas ([a-z]+)(?: (${LEDGER}|<ledger>)(?![\\w-]))?( --why "\\.\\.\\.")?\`?`, 'g'),
        (whole, run: string | undefined, verb: string, ledger: string | undefined, why: string | undefined) => {
          const tool = TOOL_OF[verb];
          if (!tool) return whole;
          const args = [ledger !== undefined ? `ledger ${ledger}` : '', why !== undefined ? 'a why' : ''].filter(Boolean).join(' and ');
          return `${run !== undefined ? 'call ' : ''}${tool}${args ? ` with ${args}` : ''}`;
        },
      )
      .replace(/(^|[^\w-])--([a-z][a-z-]*)/g, (_, before: string, flag: string) => `${before}${argumentOf(flag)}`)
  );
}
