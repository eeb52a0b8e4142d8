/**
 * What the server refuses before the SDK sees a message (docs/mcp.md, "Running it" and "Results"). The
 * SDK's own checks let two things through badly:
 *
 * - a key named `__proto__` in a tool's arguments, at any depth (JSON.parse makes it an ordinary
 *   key and the SDK's message schema keeps the arguments as they are, but the tools' strict
 *   schemas drop it without a word, since their parsers treat it as the prototype, not as an
 *   unknown argument). It is refused as an unknown argument, with the same `isError` result the
 *   schema gives any other. (Elsewhere in a request the SDK's message schema has already dropped
 *   it, harmlessly, before any handler sees it.)
 * - `tools/call` params that are not the documented shape (`arguments` a string or an array,
 *   `name` not a string): the SDK answers `-32603` (internal error); they are `-32602` (invalid
 *   params), the caller's fault.
 *
 * Everything else is forwarded unchanged.
 */
import type { Transport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** JSON-RPC's code for invalid method parameters. */
const INVALID_PARAMS = -32602;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The path of the first own key named `__proto__` in a parsed JSON value (`params.arguments`),
 * or null. Iterative, so a deeply nested value cannot overflow the stack.
 */
function protoKeyPath(value: unknown, root: string): string | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) return `${path}.__proto__`;
    for (const [k, child] of Object.entries(v)) stack.push([child, Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`]);
  }
  return null;
}

/**
 * The answer to a request the SDK must not see, or null to forward it.
 *
 * @param message - one parsed JSON-RPC message
 * @returns a JSON-RPC error (`-32602`), a tool result with `isError: true`, or null
 */
function refusalOf(message: JSONRPCMessage): JSONRPCMessage | null {
  if (!('method' in message) || !('id' in message)) return null;
  const { id } = message;
  if (message.method !== 'tools/call') return null;
  const params: unknown = (message as { params?: unknown }).params;
  const invalid = (detail: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: `Invalid params: ${detail}` } });
  if (!isPlainObject(params)) return invalid('tools/call takes an object {name, arguments}');
  if (typeof params.name !== 'string') return invalid('tools/call needs the tool\'s name as a string in "name"');
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    const got = Array.isArray(params.arguments) ? 'an array' : params.arguments === null ? 'null' : `a ${typeof params.arguments}`;
    return invalid(`the arguments of tools/call are an object of named arguments, not ${got}`);
  }
  const inArguments = protoKeyPath(params.arguments, 'arguments');
  if (inArguments !== null) {
    return {
      jsonrpc: '2.0',
      id,
      result: {
        content: [
          {
            type: 'text',
            text: `Input validation error: Invalid arguments for tool ${params.name}: ${inArguments} is not an argument (a key named __proto__ is refused, never dropped)`,
          },
        ],
        isError: true,
      },
    };
  }
  return null;
}

/**
 * Put {@link refusalOf} in front of a connected transport's message handler: a refused request
 * is answered at once and never reaches the SDK.
 *
 * @param transport - a transport whose message handler the server has set (it is starting)
 */
export function guardMessages(transport: Transport): void {
  const forward = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = refusalOf(message);
    if (refusal === null) {
      forward?.(message, extra);
      return;
    }
    transport.send(refusal).catch(() => {
      // The client went away; nothing is left to answer.
    });
  };
}
