/**
 * What `canvas <command> --help` says after the options (docs/cli.md, "Help"): for every command
 * an example, and for the node edits what they require (one place, one payload) and the XML
 * vocabulary with an example per element. Kept in one table, added by `main.ts` to each command it
 * registers, so a new command gets the habit by adding its line here; a test checks that every
 * command has an example and that every vocabulary example is a payload the store takes.
 */

/** One example command line per command (several where the flags differ in kind). */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  create: ['canvas create fix-login --why "the task was opened"'],
  open: [
    'canvas open fix-login --problem "Login times out under load." --expected-value "p99 under 2 s" --why "task opened"',
    'canvas open fix-login --why "task opened"          # both values from state/ledger/fix-login.json',
  ],
  insert: [
    'canvas insert fix-login --into root --question "Is the timeout in the proxy or the app?" --base <sha> --why "nobody knows yet"',
    'canvas insert fix-login --after b7qa --xml \'<list><item>proxy</item><item>app</item></list>\' --base <sha> --why "the suspects"',
    'canvas insert fix-login --into s1 --xml-file table.xml --base <sha> --why "the options compared"',
    'canvas insert fix-login --into root --excalidraw-file sketch.excalidraw --caption "The services" --base <sha> --why "as drawn on Monday"',
  ],
  replace: [
    'canvas replace fix-login b7qa --text "The proxy: its idle timeout is 30 s." --base <sha> --why "measured at 30 s"',
    'cat node.xml | canvas replace fix-login b7qa --xml-file - --base <sha> --why "the options settled"',
  ],
  remove: ['canvas remove fix-login b7qa --base <sha> --why "ruled out: the app answers in 40 ms"'],
  move: ['canvas move fix-login b7qa --into s1 --base <sha> --why "it belongs with the decisions"'],
  freeze: ['canvas freeze fix-login --why "shipped in 2.4.1"'],
  abandon: ['canvas abandon fix-login --why "superseded by fix-auth-2, which replaces the login flow"'],
  list: ['canvas list', 'canvas list --unwritten-by-runs --json'],
  desk: ['canvas desk', 'canvas desk --json'],
  search: ['canvas search idle timeout', 'canvas search "use markdown" --type section --json', 'canvas search proxy --ledger fix-login --limit 5'],
  edges: ['canvas edges fix-login', 'canvas edges fix-login --json'],
  watch: ['canvas watch fix-login --author ana'],
  unwatch: ['canvas unwatch fix-login --author ana'],
  inbox: ['canvas inbox --author ana', 'canvas inbox --author ana --ack --json'],
  read: ['canvas read fix-login', 'canvas read fix-login --type question --json', "canvas read fix-login --fetch          # the shared remote's latest"],
  history: ['canvas history fix-login b7qa'],
  log: ['canvas log fix-login -n 5'],
  verify: ['canvas verify', 'canvas verify fix-login --json'],
  remote: ['canvas remote set git://git.example.org/canvas.git', 'canvas remote show --json', 'canvas remote unset          # writes stay local from then on'],
  sync: ['canvas sync', 'canvas sync --json'],
  grant: ['canvas grant fix-login ana editor --why "ana owns the proxy"'],
  revoke: ['canvas revoke fix-login ana --why "moved to another team"'],
  access: ['canvas access fix-login'],
  proposals: ['canvas proposals fix-login'],
  approve: ['canvas approve fix-login 5f66076e8e --why "checked the numbers"'],
  reject: ['canvas reject fix-login 5f66076e8e --why "the measurement was on staging"'],
  import: ['canvas import fix-login --markdown decision.md --why "the decision record, moved here"'],
  build: [
    'canvas build --out site',
    'canvas build --out site --ledger fix-login',
    'canvas build --from git://git.example.org/canvas.git --out site',
    'canvas build --out site --verify-output --workers 1',
    'canvas build --out site --vendor-mermaid .vendor/mermaid/package',
  ],
  mcp: ['canvas mcp --as planner --workspace ~/ws          # step and run are arguments of each tool call'],
  hook: [
    'canvas hook claude-code --workspace ~/ws          # in .claude/settings.json, for SessionStart and UserPromptSubmit',
    'canvas hook copilot session-start --session <invocation.sessionId> --ledger fix-login < input.json',
  ],
  render: ['canvas render fix-login -o page.html', 'canvas render fix-login --format comment -o -', 'canvas render fix-login --figure k2d9 --format excalidraw -o sketch.excalidraw   # open it in Excalidraw'],
  prompt: ['canvas prompt fix-login --edits 5'],
  publish: ['canvas publish fix-login --row-body row.md --comment-url <url>', 'canvas publish fix-login --row-body - --recording <url> --dry-run < row.md'],
  check: ['canvas check fix-login --dry-run'],
  completion: [
    'canvas completion bash > ~/.local/share/bash-completion/completions/canvas',
    'canvas completion zsh > ~/.zfunc/_canvas           # with fpath+=(~/.zfunc) in ~/.zshrc',
    'canvas completion fish > ~/.config/fish/completions/canvas.fish',
  ],
  help: ['canvas help environment', 'canvas help insert'],
};

/** The element vocabulary of a payload (docs/schema.md): one example per element, as `--xml` takes it. */
export const VOCABULARY: ReadonlyArray<readonly [element: string, example: string]> = [
  ['text', '<text>Login times out under load.</text>'],
  ['question', '<question answered="true">Is the timeout in the proxy?</question>   (answered="true" is optional)'],
  ['list', '<list ordered="true"><item>measure</item><item>fix</item></list>   (ordered="true" is optional)'],
  ['table', '<table><row><cell>option</cell><cell>cost</cell></row><row><cell>raise it</cell><cell>1 day</cell></row></table>'],
  ['link', '<link href="https://example.org/runbook">the runbook</link>'],
  ['figure', '<figure kind="mermaid" caption="the path">graph LR; proxy-->app</figure>   (kind: diagram, mermaid, svg or excalidraw)'],
  ['section', '<section title="Decisions"></section>   (born empty; insert its nodes --into it)'],
];

const PLACE = 'Place: exactly one of --after <node> (its next sibling) or --into <section id|root> (its first child).';
const PAYLOAD = 'Payload: exactly one of --xml FRAGMENT, --xml-file PATH (- for standard input), --text S, --question S [--answered], --section TITLE, --excalidraw-file PATH [--caption C].';

/** What a node edit requires, by command: the place and the payload. */
const REQUIRES: Readonly<Record<string, readonly string[]>> = {
  insert: [PLACE, PAYLOAD],
  replace: [PAYLOAD, 'A section takes a childless <section title="..."></section> (or --section TITLE): its children stay.'],
  move: [PLACE],
};

/**
 * The help text after the options of one command: what it requires, the vocabulary (insert and
 * replace), its examples.
 *
 * @param command - the command's name
 * @returns the text (starting with a blank line), or the empty string for a command with none
 */
export function helpAfter(command: string): string {
  const lines: string[] = [];
  const requires = REQUIRES[command];
  if (requires) lines.push('', ...requires);
  if (command === 'insert' || command === 'replace') {
    lines.push('', 'XML vocabulary (one node, without id and v; docs/schema.md):');
    for (const [, example] of VOCABULARY) lines.push(`  ${example}`);
  }
  const examples = EXAMPLES[command];
  if (examples) lines.push('', examples.length === 1 ? 'Example:' : 'Examples:', ...examples.map((e) => `  ${e}`));
  return lines.join('\n');
}
