/**
 * Every command of the CLI, by the group that registers it: written once, here, because the start
 * (`start.ts`) keys its compile cache by command and must not load the commands to learn their
 * names. `main.ts` maps each group to its register function (a test checks that each group
 * registers exactly these names). Order is registration order, which is the order of `--help`.
 */
export const COMMAND_GROUP_NAMES = {
  write: ['create', 'open', 'insert', 'replace', 'remove', 'move', 'freeze', 'abandon'],
  read: ['read', 'history', 'log'],
  list: ['list'],
  desk: ['desk'],
  search: ['search'],
  edges: ['edges'],
  watch: ['watch', 'unwatch', 'inbox'],
  verify: ['verify'],
  remote: ['remote', 'sync'],
  access: ['grant', 'revoke', 'access', 'proposals', 'approve', 'reject'],
  import: ['import'],
  build: ['build'],
  mcp: ['mcp'],
  hook: ['hook'],
  render: ['render', 'prompt'],
  publish: ['publish'],
  check: ['check'],
  serve: ['serve'],
  token: ['token'],
  completion: ['completion', 'complete'],
  help: ['help'],
} as const satisfies Record<string, readonly string[]>;

/** A group of commands registered together (a key of {@link COMMAND_GROUP_NAMES}). */
export type CommandGroup = keyof typeof COMMAND_GROUP_NAMES;

/** Every command name, in registration order. */
export const COMMAND_NAMES: readonly string[] = Object.values(COMMAND_GROUP_NAMES).flat();
