// The order of one connection's calls between the transport and the SDK (docs/mcp.md, "Order of
// calls"): which calls are started, and when, as messages are read and answers are sent.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { orderCalls } from '../../src/mcp/order-calls.js';

/** A transport whose handlers record what the SDK would be given, and what it sent. */
function fake(): { transport: Transport; started: Array<string | number>; sent: JSONRPCMessage[]; read: (m: JSONRPCMessage) => void; answer: (id: number) => void } {
  const started: Array<string | number> = [];
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (m) => {
      sent.push(m);
    },
    onmessage: (m) => {
      if ('method' in m && 'id' in m) started.push(m.id);
    },
  };
  return {
    transport,
    started,
    sent,
    read: (m) => transport.onmessage?.(m),
    answer: (id) => void transport.send({ jsonrpc: '2.0', id, result: {} }),
  };
}

const call = (id: number, name: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const changes = (r: JSONRPCRequest) => (r.params as { name: string }).name === 'write';

describe('orderCalls', () => {
  it('runs reads side by side, holds a write until they are answered, and the calls after a write until it is', async () => {
    const t = fake();
    const order = orderCalls(t.transport, changes);
    t.read(call(1, 'read'));
    t.read(call(2, 'read'));
    t.read(call(3, 'write'));
    t.read(call(4, 'read'));
    t.read({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(t.started).toEqual([1, 2, 5]);
    t.answer(2);
    expect(t.started).toEqual([1, 2, 5]);
    t.answer(1);
    expect(t.started).toEqual([1, 2, 5, 3]);
    expect(order.pending()).toBe(2);
    t.answer(3);
    expect(t.started).toEqual([1, 2, 5, 3, 4]);
    let drained = false;
    const done = order.drained().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    t.answer(4);
    await done;
    expect(order.pending()).toBe(0);
  });

  it('holds the calls after a running tool call that is cancelled until its handler has ended', () => {
    const t = fake();
    const settles = (r: JSONRPCRequest) => r.method === 'tools/call';
    const order = orderCalls(t.transport, changes, settles);
    t.read(call(1, 'write'));
    t.read(call(2, 'read'));
    // The SDK only tells the handler of 1: it may still write, so 2 must not see the canvas before.
    t.read({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(t.started).toEqual([1]);
    expect(order.pending()).toBe(2);
    order.settled(2); // not running: nothing changes
    expect(t.started).toEqual([1]);
    order.settled(1);
    expect(t.started).toEqual([1, 2]);
    expect(order.pending()).toBe(1);
    // A call not cancelled is ended by its answer, not by its handler's end.
    t.read(call(3, 'write'));
    order.settled(2);
    expect(t.started).toEqual([1, 2]);
    t.answer(2);
    expect(t.started).toEqual([1, 2, 3]);
  });

  it('drops a held call that is cancelled, and lets go of a running one that will not say when it ends', () => {
    const t = fake();
    const order = orderCalls(t.transport, changes);
    t.read(call(1, 'write'));
    t.read(call(2, 'write'));
    t.read(call(3, 'read'));
    t.read({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    expect(t.started).toEqual([1]);
    t.read({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(t.started).toEqual([1, 3]);
    expect(order.pending()).toBe(1);
  });

  it('lets every held call go when the connection closes', async () => {
    const t = fake();
    const order = orderCalls(t.transport, changes);
    t.read(call(1, 'write'));
    t.read(call(2, 'read'));
    t.transport.onclose?.();
    await order.drained();
    expect(t.started).toEqual([1]);
  });
});
