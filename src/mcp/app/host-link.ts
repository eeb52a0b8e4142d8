// The view's side of the MCP Apps channel (docs/mcp.md, "The canvas in chat hosts"): JSON-RPC 2.0
// over postMessage with the window that holds the view, as the extension (2026-01-26) defines it,
// which says a view needs no SDK for it. A few lines instead of the SDK's App, whose bundle (its MCP
// client and zod) is about 400 KB minified even without zod's locales: every view would carry it,
// seven times the page it draws. The host side stays the SDK's (AppBridge), and the browser test
// talks to it.
import type { McpUiInitializeRequest, McpUiInitializeResult } from '@modelcontextprotocol/ext-apps';

type Id = number;
interface Message {
  jsonrpc: '2.0';
  id?: Id | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

/** The channel to the host, once `ui/initialize` has been answered and `initialized` sent. */
export interface HostLink {
  /** What the host answered `ui/initialize` with. */
  host: McpUiInitializeResult;
  /** Send a request and resolve with its result; a JSON-RPC error rejects, naming it. */
  request: <T>(method: string, params: Record<string, unknown>) => Promise<T>;
  /** Send a notification. */
  notify: (method: string, params: Record<string, unknown>) => void;
}

/**
 * Open the channel: listen to the parent window only, send `ui/initialize`, and once answered send
 * `ui/notifications/initialized`. Notifications from the host go to `onNotification`; a request
 * from the host goes to `onRequest`, whose value is the result (undefined: the method is unknown,
 * answered -32601).
 *
 * @param appInfo - the view's name and version
 * @param onNotification - called with each notification's method and params
 * @param onRequest - called with each request's method and params
 */
export async function connectToHost(
  appInfo: McpUiInitializeRequest['params']['appInfo'],
  onNotification: (method: string, params: Record<string, unknown>) => void,
  onRequest: (method: string, params: Record<string, unknown>) => object | undefined,
): Promise<HostLink> {
  const host = window.parent;
  let next = 1;
  const waiting = new Map<Id, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const post = (m: Message) => host.postMessage(m, '*');
  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as Message | null;
    if (e.source !== host || m?.jsonrpc !== '2.0') return;
    if (m.method === undefined) {
      const w = typeof m.id === 'number' ? waiting.get(m.id) : undefined;
      if (!w) return;
      waiting.delete(m.id as Id);
      if (m.error) w.reject(new Error(`${m.error.code}: ${m.error.message}`));
      else w.resolve(m.result);
    } else if (m.id === undefined) onNotification(m.method, m.params ?? {});
    else {
      const result = m.method === 'ping' ? {} : onRequest(m.method, m.params ?? {});
      post(result === undefined ? { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${m.method} is not a method of this view` } } : { jsonrpc: '2.0', id: m.id, result });
    }
  });
  const request = <T>(method: string, params: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      post({ jsonrpc: '2.0', id, method, params });
    });
  const notify = (method: string, params: Record<string, unknown>) => post({ jsonrpc: '2.0', method, params });
  const init: McpUiInitializeRequest['params'] = { appInfo, appCapabilities: {}, protocolVersion: '2026-01-26' };
  const answered = await request<McpUiInitializeResult>('ui/initialize', init);
  notify('ui/notifications/initialized', {});
  return { host: answered, request, notify };
}
