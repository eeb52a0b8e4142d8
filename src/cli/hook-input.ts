import { CanvasError } from '../model/canvas-error.js';

/**
 * What `canvas hook` reads from a harness and prints back (docs/agents.md): each harness's
 * documented contract, in one place.
 *
 * - **claude-code**: Claude Code's command hooks. The input on stdin is one JSON object with
 *   `session_id`, `transcript_path`, `cwd`, `hook_event_name` (`SessionStart`, with `source`
 *   `startup`, `resume`, `clear` or `compact`; or `UserPromptSubmit`, with `prompt`) and more
 *   fields this command does not need. The output is
 *   `{"hookSpecificOutput":{"hookEventName":<the event>,"additionalContext":<text>}}`.
 * - **copilot**: the GitHub Copilot SDK's `onSessionStart` and `onUserPromptSubmitted` hooks, which
 *   run in the SDK's own process: the handler passes its `input` (`timestamp`, `cwd`, and `source`
 *   and `initialPrompt`, or `prompt`) on stdin, the event as an argument and
 *   `invocation.sessionId` as `--session`, and returns the printed `{"additionalContext":<text>}`.
 */

/** The harnesses `canvas hook` speaks to. */
export const HARNESSES = ['claude-code', 'copilot'] as const;
export type Harness = (typeof HARNESSES)[number];

/** The two moments a hook adds context at. */
type HookEvent = 'session-start' | 'prompt-submit';

/** The events of the Copilot SDK, as `canvas hook copilot <event>` names them. */
const COPILOT_EVENTS: Readonly<Record<string, HookEvent>> = { 'session-start': 'session-start', 'user-prompt-submitted': 'prompt-submit' };

/** Claude Code's events this command answers, by `hook_event_name`. */
const CLAUDE_EVENTS: Readonly<Record<string, HookEvent>> = { SessionStart: 'session-start', UserPromptSubmit: 'prompt-submit' };

/** One hook call, as read from the harness. */
export interface HookCall {
  event: HookEvent;
  /** The harness's session id: the cursor's key. */
  session: string;
  /** The working directory the harness names, if it names one. */
  cwd: string | undefined;
  /** How the output names the event (Claude Code's `hookEventName`). */
  eventName: string;
}

function badInput(harness: Harness, message: string, data: Record<string, unknown> = {}): CanvasError {
  const what = harness === 'claude-code' ? 'the JSON Claude Code sends a SessionStart or UserPromptSubmit hook' : "the Copilot SDK hook's input as JSON";
  return new CanvasError('HOOK_INPUT', `canvas hook ${harness}: ${message}`, `run it as the harness's hook, with ${what} on standard input (docs/agents.md)`, { harness, ...data });
}

/**
 * Read one hook call from the harness's input (the module header gives the contracts).
 *
 * @param harness - `claude-code` or `copilot`
 * @param text - standard input, decoded
 * @param event - the event argument (copilot only: `session-start` or `user-prompt-submitted`)
 * @param session - `--session` (copilot only: `invocation.sessionId`)
 * @returns the event, the session and the working directory
 * @throws CanvasError `HOOK_INPUT` for input that is not the harness's JSON (not an object, no
 *   session id, an event this command does not answer); `USAGE` for an event argument or
 *   `--session` the harness does not take, or a missing one it needs
 */
export function readHookCall(harness: Harness, text: string, event: string | undefined, session: string | undefined): HookCall {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw badInput(harness, `standard input is not JSON (${JSON.stringify(text.slice(0, 40))})`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw badInput(harness, 'standard input is JSON but not an object');
  const o = input as Record<string, unknown>;
  const cwd = typeof o.cwd === 'string' && o.cwd !== '' ? o.cwd : undefined;
  if (harness === 'claude-code') {
    if (event !== undefined || session !== undefined) {
      throw new CanvasError('USAGE', 'canvas hook claude-code takes no event and no --session: its input names both (hook_event_name, session_id)', 'canvas hook claude-code [--ledger <id>]');
    }
    const name = o.hook_event_name;
    const kind = typeof name === 'string' ? CLAUDE_EVENTS[name] : undefined;
    if (kind === undefined) throw badInput(harness, `hook_event_name ${JSON.stringify(name)} is not SessionStart or UserPromptSubmit, the events it answers`, { event: name ?? null });
    if (typeof o.session_id !== 'string' || o.session_id === '') throw badInput(harness, 'the input has no session_id');
    return { event: kind, session: o.session_id, cwd, eventName: name as string };
  }
  const kind = event === undefined ? undefined : COPILOT_EVENTS[event];
  if (kind === undefined) {
    throw new CanvasError(
      'USAGE',
      `canvas hook copilot needs the event: session-start or user-prompt-submitted${event === undefined ? '' : `, not ${event}`}`,
      'canvas hook copilot session-start --session <invocation.sessionId>',
      { event: event ?? null },
    );
  }
  if (session === undefined || session === '') {
    throw new CanvasError(
      'USAGE',
      'canvas hook copilot needs --session: the SDK gives the session id to the handler (invocation.sessionId), not in its input',
      `canvas hook copilot ${event} --session <invocation.sessionId>`,
    );
  }
  if (kind === 'prompt-submit' && typeof o.prompt !== 'string') throw badInput(harness, 'the input of user-prompt-submitted has no prompt');
  return { event: kind, session, cwd, eventName: event! };
}

/**
 * The JSON the harness takes back, one line (the module header gives the shapes).
 *
 * @param harness - `claude-code` or `copilot`
 * @param call - the call answered
 * @param text - the context to add
 */
export function hookOutput(harness: Harness, call: HookCall, text: string): string {
  const out = harness === 'claude-code' ? { hookSpecificOutput: { hookEventName: call.eventName, additionalContext: text } } : { additionalContext: text };
  return `${JSON.stringify(out)}\n`;
}
