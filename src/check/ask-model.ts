import { CanvasError } from '../model/canvas-error.js';
import type { Clock } from '../model/clock.js';
import { parseRetryAfter } from '../model/parse-retry-after.js';
import type { ChatMessage } from './check-prompt.js';
import type { ModelConfig } from './model-config.js';

/** How long the checker waits on the model (docs/coherence.md "Failures"). */
export interface AskOptions {
  /** Timeout of one request, in ms (default 60000). */
  timeoutMs?: number | undefined;
  /** Total time for the call including every retry and wait, in ms (default 180000). */
  budgetMs?: number | undefined;
  /** The first back-off after a 429 or 5xx without `Retry-After`, in ms; doubles up to 30000 (default 1000). */
  backoffMs?: number | undefined;
  /** The clock the budget is kept by and waits sleep on (default real time, a request's timeout by the SDK's own timer); tests pass one that does not sleep. */
  clock?: Clock | undefined;
}

/** The longest timer Node arms (2^31 - 1 ms): the SDK's own timer when the clock keeps the timeout. */
const NO_SDK_TIMEOUT = 2_147_483_647;

const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What the model answered. */
export interface ModelReply {
  /** The text of the first choice. */
  content: string;
  /** Whether the reply was asked for with a JSON schema (false after the server refused one). */
  structured: boolean;
  /** How many requests were sent. */
  attempts: number;
  /** Tokens as the server counted them, when it says. */
  usage: { promptTokens: number; completionTokens: number } | null;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** `Retry-After` (delta-seconds or an HTTP date) or `retry-after-ms`, in ms; null when absent. */
function retryAfter(headers: Headers | undefined): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && /^[0-9]+(\.[0-9]+)?$/.test(ms.trim())) return Number(ms);
  return parseRetryAfter(headers?.get('retry-after'), Date.now());
}

/**
 * Ask the model once for a JSON reply, through the official `openai` SDK (loaded here, only when
 * a check runs). Structured output first (`response_format: {type: "json_schema"}`); a server
 * that refuses it (400 or 422) is asked again without it, the instructions asking for JSON all the
 * same. A 408, 409, 429 or 5xx is retried with back-off (a 429's `Retry-After` honoured) while the
 * time budget lasts; a timeout or a refused connection fails at once. Holds no lock and touches
 * no file: the store is not involved.
 *
 * @param config - the server, the model and the key (never put in a message)
 * @param messages - the system and user messages
 * @param schema - the JSON schema of the reply
 * @param options - timeout, budget, back-off (ms)
 * @returns the reply's text, whether it was structured, the attempts and the usage
 * @throws CanvasError `CHECK_MODEL_TIMEOUT`, `CHECK_MODEL_UNREACHABLE`, `CHECK_MODEL_FAILED`,
 *   `CHECK_BAD_REPLY` (a body that is not a chat completion, no text, or cut short)
 *   (docs/coherence.md "Failures")
 */
export async function askModel(config: ModelConfig, messages: ChatMessage[], schema: Record<string, unknown>, options: AskOptions = {}): Promise<ModelReply> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const budgetMs = options.budgetMs ?? 180_000;
  let backoff = options.backoffMs ?? 1_000;
  const clock = options.clock ?? REAL_CLOCK;
  const sdk = await import('openai');
  const OpenAI = sdk.default;
  const client = new OpenAI({
    baseURL: config.url,
    // A local server wants no key; the SDK insists on one, so it gets a placeholder.
    apiKey: config.apiKey ?? 'none',
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: timeoutMs,
    // OPENAI_LOG=debug would print requests: the checker prints nothing of its own.
    logLevel: 'off',
  });
  const redact = (text: string): string => (config.apiKey ? text.split(config.apiKey).join('[key]') : text);
  const where = `${config.model} at ${config.url}`;
  const started = clock.now();
  let attempts = 0;
  let structured = true;
  const failed = (message: string, data: Record<string, unknown>, hint = 'run the check again later; the canvas was not changed') =>
    new CanvasError('CHECK_MODEL_FAILED', redact(message), hint, { attempts, ...data });
  for (;;) {
    attempts += 1;
    const spent = clock.now() - started;
    const timeout = Math.max(1, Math.floor(Math.min(timeoutMs, budgetMs - spent)));
    const timer = clock.timeout?.(timeout);
    try {
      const res = await client.chat.completions.create(
        {
          model: config.model,
          messages,
          temperature: 0,
          stream: false,
          ...(structured ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'contradictions', strict: true, schema } } } : {}),
        },
        timer ? { timeout: NO_SDK_TIMEOUT, maxRetries: 0, signal: timer } : { timeout, maxRetries: 0 },
      );
      // What the server sent is not trusted to be a chat completion (a proxy's page, `null`).
      const choice = (res as Partial<typeof res> | null)?.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string' || content.trim() === '') {
        throw new CanvasError('CHECK_BAD_REPLY', `${where} answered without any text`, 'check that the model is a chat model; the canvas was not changed', { attempts });
      }
      if (choice?.finish_reason === 'length') {
        throw new CanvasError(
          'CHECK_BAD_REPLY',
          `${where} stopped its reply at its length limit, so the reply is cut short`,
          "raise the server's output limit, or use a model with a larger context; the canvas was not changed",
          {
            attempts,
          },
        );
      }
      const usage = res?.usage ? { promptTokens: res.usage.prompt_tokens, completionTokens: res.usage.completion_tokens } : null;
      return { content, structured, attempts, usage };
    } catch (e) {
      if (e instanceof CanvasError) throw e;
      if (e instanceof SyntaxError) {
        // The SDK parses a 2xx body as JSON: one that is not JSON is a reply, not a chat completion.
        throw new CanvasError(
          'CHECK_BAD_REPLY',
          `${where} answered with a body that is not JSON`,
          'check that CANVAS_MODEL_URL is the Chat Completions API itself (often ending in /v1), not a page in front of it; the canvas was not changed',
          {
            attempts,
          },
        );
      }
      if (e instanceof sdk.APIConnectionTimeoutError || (timer?.aborted && e instanceof sdk.APIUserAbortError)) {
        throw new CanvasError('CHECK_MODEL_TIMEOUT', `${where} did not answer within ${seconds(timeout)}`, 'run the check again, or give it more time with --timeout; the canvas was not changed', {
          attempts,
          timeoutMs: timeout,
        });
      }
      if (e instanceof sdk.APIConnectionError) {
        const cause = (e.cause as { code?: string; cause?: { code?: string } } | undefined) ?? {};
        const code = cause.code ?? cause.cause?.code ?? e.message;
        throw new CanvasError('CHECK_MODEL_UNREACHABLE', redact(`cannot reach ${config.url}: ${code}`), 'start the model server, or set CANVAS_MODEL_URL to where it listens; the canvas was not changed', {
          attempts,
          cause: redact(String(code)),
        });
      }
      if (e instanceof sdk.APIError && typeof e.status === 'number') {
        const status = e.status;
        const said = redact(e.message).slice(0, 300);
        if (structured && (status === 400 || status === 422)) {
          // The server refuses structured output: ask again for plain JSON (docs/coherence.md).
          structured = false;
          continue;
        }
        if (status === 408 || status === 409 || status === 429 || status >= 500) {
          const after = status === 429 ? retryAfter(e.headers) : null;
          const wait = after ?? backoff;
          const now = clock.now() - started;
          if (now + wait >= budgetMs) {
            throw failed(`${where} kept failing (${status}: ${said}); gave up after ${attempts} attempts in ${seconds(now)} (the budget is ${seconds(budgetMs)})`, {
              status,
            });
          }
          await clock.sleep(wait);
          if (after === null) backoff = Math.min(backoff * 2, 30_000);
          continue;
        }
        if (status === 401 || status === 403) {
          throw failed(`${where} refused the request (${status}): the key is missing, wrong or not allowed this model`, { status }, 'set CANVAS_MODEL_API_KEY to a key the server accepts');
        }
        if (status === 404) {
          throw failed(
            `${where} answered 404: no such model, or the URL is not a Chat Completions API`,
            { status },
            'check CANVAS_MODEL and CANVAS_MODEL_URL (it ends where /chat/completions is appended, often /v1)',
          );
        }
        throw failed(`${where} refused the request (${status}: ${said})`, { status }, "check the server's log; the canvas was not changed");
      }
      throw e;
    }
  }
}
