/**
 * The order of one connection's calls (docs/mcp.md, "Order of calls"). The SDK starts every
 * request the moment it is read and answers each when its handler ends, so two calls a client
 * sends without waiting for the first answer run at once, and a `canvas_inbox` sent right after
 * a `canvas_watch` may not see the watch. Here, between the transport and the SDK:
 *
 * - a call that changes anything (the caller's own state included: a write, `canvas_watch`,
 *   `canvas_unwatch`, `canvas_inbox`, `canvas_read` and `resources/read`, which make the caller a
 *   watcher, `resources/subscribe`) starts once every call read before it has been answered, and
 *   every call read after it waits for its answer;
 * - a call that changes nothing starts at once, beside other such calls, unless a call that
 *   changes something was read before it and is not answered yet.
 *
 * So a client that sends calls without waiting gets what it would get by awaiting each in turn,
 * and reads still run side by side. Only `tools/call` and `resources/*` requests are ordered;
 * every other message (`initialize`, `ping`, `tools/list`, notifications, the client's answers to
 * the server) passes at once. A held call that is cancelled is dropped (the SDK answers nothing
 * to a cancelled call). A tool call cancelled while it runs goes on holding the calls after it
 * until its handler has ended ({@link CallOrder.settled}): the SDK only tells the handler, which
 * may still write, so a `canvas_read` sent after a cancelled `canvas_insert` sees whether the
 * insert landed. Any other call cancelled while it runs stops holding at once (it has no handler
 * that says when it ends, and none of them writes a canvas).
 */
import type { Transport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';

/** What the server needs of the order: whether every call read so far has been answered. */
export interface CallOrder {
  /** How many calls are held or running. */
  pending: () => number;
  /** Resolves once no call is held or running. */
  drained: () => Promise<void>;
  /** The handler of the call of this id has ended (it may have been cancelled, so never answered). */
  settled: (id: string | number) => void;
}

type Id = string | number;

/** A request id as a map key (`1` and `"1"` are two ids). */
const keyOf = (id: Id): string => `${typeof id}:${id}`;

const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

const ordered = (m: JSONRPCRequest): boolean => m.method === 'tools/call' || m.method.startsWith('resources/');

/**
 * Put the order in front of a transport whose handlers the SDK has set (called as it starts).
 *
 * @param transport - the connection's transport
 * @param changes - whether a request changes anything (else it only reads)
 * @param settles - whether the server calls {@link CallOrder.settled} when the request's handler ends
 * @returns the order's state, and where the server says a handler has ended
 */
export function orderCalls(transport: Transport, changes: (request: JSONRPCRequest) => boolean, settles: (request: JSONRPCRequest) => boolean = () => false): CallOrder {
  const deliver = transport.onmessage;
  const send = transport.send.bind(transport);
  const onclose = transport.onclose;
  const held: Array<{ key: string; changes: boolean; settles: boolean; go: () => void }> = [];
  /** The calls started and not answered, each with whether it changes anything. */
  const running = new Map<string, boolean>();
  /** The running calls that will say when their handler ends. */
  const settling = new Set<string>();
  /** Of those, the ones cancelled: released when their handler ends. */
  const cancelled = new Set<string>();
  const waiting: Array<() => void> = [];

  const pump = () => {
    while (held.length > 0) {
      const next = held[0]!;
      const blocked = next.changes ? running.size > 0 : [...running.values()].some(Boolean);
      if (blocked) break;
      held.shift();
      running.set(next.key, next.changes);
      if (next.settles) settling.add(next.key);
      next.go();
    }
    if (held.length === 0 && running.size === 0) for (const w of waiting.splice(0)) w();
  };
  const release = (id: Id) => {
    const key = keyOf(id);
    settling.delete(key);
    cancelled.delete(key);
    if (running.delete(key)) pump();
  };

  transport.onmessage = (message, extra) => {
    if (isRequest(message) && ordered(message)) {
      held.push({ key: keyOf(message.id), changes: changes(message), settles: settles(message), go: () => deliver?.(message, extra) });
      pump();
      return;
    }
    deliver?.(message, extra);
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: Id } | undefined)?.requestId;
      if (id === undefined) return;
      const at = held.findIndex((h) => h.key === keyOf(id));
      if (at >= 0) held.splice(at, 1);
      if (settling.has(keyOf(id))) cancelled.add(keyOf(id));
      else release(id);
      pump();
    }
  };
  transport.send = (message, options) => {
    // An answer (not a request of the server's own) ends its call before it is written.
    if (!('method' in message) && 'id' in message && message.id !== undefined) release(message.id);
    return send(message, options);
  };
  transport.onclose = () => {
    held.length = 0;
    running.clear();
    settling.clear();
    cancelled.clear();
    pump();
    onclose?.();
  };
  return {
    settled: (id) => {
      if (cancelled.has(keyOf(id))) release(id);
    },
    pending: () => held.length + running.size,
    drained: () =>
      held.length === 0 && running.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.push(resolve);
          }),
  };
}
