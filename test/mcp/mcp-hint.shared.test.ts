import { describe, expect, it } from 'vitest';
import { mcpHint } from '../../src/mcp/mcp-hint.js';

// Hints over MCP name the tool and its argument, never a command's flag (docs/errors.md, "Hints over MCP").
describe('mcpHint', () => {
  const cases: Array<[string, string]> = [
    ['run `canvas read plan` first and pass its Canvas-Base: sha as --base', 'call canvas_read with ledger plan first and pass its revision as `base`'],
    ['create it: canvas create plan --why "..."', 'create it: canvas_create with ledger plan and a why'],
    ['ask an owner of plan (leo) to run: canvas grant plan zed viewer --why "..."', 'ask an owner of plan (leo) to run: canvas_grant with ledger plan, who zed, role viewer and a why'],
    ['list open proposals: canvas proposals plan', 'list open proposals: canvas_list_proposals with ledger plan'],
    ['use --after <node> for the next sibling, or --into <section-id|root> for the first child', 'use `after` <node> for the next sibling, or `into` <section-id|root> for the first child'],
    ['retry with a new --idempotency-key', 'retry with a new `idempotencyKey`'],
    ['pass --expected-value or add expected_value to the row', 'pass `expectedValue` or add expected_value to the row'],
    ['write as --author leo', "write as the server's identity leo"],
    ['fix the payload and try again', 'fix the payload and try again'],
  ];
  it.each(cases)('%s', (hint, expected) => {
    expect(mcpHint(hint)).toBe(expected);
    expect(mcpHint(hint)).not.toMatch(/(^|[^\w-])--[a-z]/);
  });
});
