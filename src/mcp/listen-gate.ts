/**
 * `subscriptions/listen` of the 2026-07-28 revision, in front of the SDK's stdio entry (docs/mcp.md,
 * "Resources and subscriptions"). The entry answers a listen itself (the acknowledgement, the
 * subscription id on every notification it forwards, the teardown) and never shows it to the
 * server, so the server could neither refuse a canvas its identity may not read nor know which
 * canvases to watch. Here, between the wire and the entry:
 *
 * - each URI in the listen's `resourceSubscriptions` must be `canvas://<ledger>` of a canvas the
 *   identity may read (viewer), as `resources/subscribe` requires; else the listen is answered
 *   with the JSON-RPC error -32602 whose `data` is the error shape, and the entry never sees it;
 * - an accepted listen follows its canvases ({@link CanvasSubscriptions.follow}, the ref watcher
 *   started before the entry acknowledges it), and its `notifications/cancelled` ends the follow.
 *
 * Every other message passes unchanged.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { CanvasSubscriptions } from './canvas-subscriptions.js';

/** A listen request's id as a follow's key (never a URI: those hold `://`). */
const keyOf = (id: string | number): string => `listen ${typeof id} ${id}`;

/**
 * Put the gate on a transport the entry will own: the returned transport is the one to hand it.
 *
 * @param inner - the wire
 * @param subscriptions - the connection's follows
 * @param check - the ledger a URI names once the identity may read it; throws the JSON-RPC error else
 * @returns a transport that delegates to `inner`
 */
export function gateListens(inner: Transport, subscriptions: CanvasSubscriptions, check: (uri: string) => Promise<string>): Transport {
  const gate: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  const listens = new Set<string>();
  const refuse = (id: string | number, e: unknown): Promise<void> => {
    const { code, message, data } = e as { code?: unknown; message?: unknown; data?: unknown };
    const error = typeof code === 'number' ? { code, message: String(message), ...(data === undefined ? {} : { data }) } : { code: -32603, message: String(message ?? e) };
    return inner.send({ jsonrpc: '2.0', id, error });
  };
  const accept = async (message: JSONRPCMessage & { id: string | number; params?: unknown }): Promise<void> => {
    const uris = (message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications?.resourceSubscriptions;
    const ledgers: string[] = [];
    try {
      if (Array.isArray(uris)) for (const uri of uris) ledgers.push(await check(String(uri)));
    } catch (e) {
      await refuse(message.id, e).catch(() => {
        // The client went away; nothing is left to answer.
      });
      return;
    }
    if (ledgers.length > 0) {
      listens.add(keyOf(message.id));
      await subscriptions.follow(keyOf(message.id), ledgers);
    }
    gate.onmessage?.(message);
  };
  // Listens are checked in order with the messages around them: a message read after a listen
  // reaches the entry after it.
  let queue = Promise.resolve();
  inner.onmessage = (message, extra) => {
    queue = queue
      .then(async () => {
        if ('method' in message && 'id' in message && message.method === 'subscriptions/listen') return accept(message);
        if ('method' in message && !('id' in message) && message.method === 'notifications/cancelled') {
          const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
          if (id !== undefined && listens.delete(keyOf(id))) subscriptions.unfollow(keyOf(id));
        }
        gate.onmessage?.(message, extra);
      })
      .catch((e: unknown) => gate.onerror?.(e instanceof Error ? e : new Error(String(e))));
  };
  inner.onclose = () => gate.onclose?.();
  inner.onerror = (error) => gate.onerror?.(error);
  return gate;
}
