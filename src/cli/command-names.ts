/**
 * Every command of the CLI, by name: the start keeps a compile cache per command named here and
 * one shared cache for anything else (a test checks this list against the registered commands).
 */
export const COMMAND_NAMES: readonly string[] = [
  'create',
  'open',
  'insert',
  'replace',
  'remove',
  'move',
  'freeze',
  'read',
  'history',
  'log',
  'verify',
  'grant',
  'revoke',
  'access',
  'proposals',
  'approve',
  'reject',
  'import',
  'build',
  'mcp',
  'render',
  'prompt',
  'publish',
  'check',
];
