import { type IndexedNode, indexNodes } from '../model/index-nodes.js';
import { parseCanvas } from '../model/parse-canvas.js';
import type { CanvasText } from '../store/index.js';
import { type AskOptions, askModel, type ModelReply } from './ask-model.js';
import { checkMessages, replySchema } from './check-prompt.js';
import type { ModelConfig } from './model-config.js';
import { type ParsedReply, parseReply } from './parse-reply.js';

/** What one question to the model gave. */
export interface Asked {
  /** The canvas's nodes by id, in document order. */
  index: Map<string, IndexedNode>;
  /** Characters sent (the system and user messages). */
  promptChars: number;
  /** The reply, or null when there was nothing to compare and the model was not asked. */
  reply: ModelReply | null;
  /** The validated contradictions and the entries set aside (empty when not asked). */
  parsed: ParsedReply;
}

/**
 * Ask the model for the contradictions of one canvas and validate the reply: the part of the
 * check that neither reads nor writes the store (docs/coherence.md). A canvas with fewer than two
 * nodes that are not questions is not sent.
 *
 * @param read - the canvas as `canvas read` gives it (ledger, revision, canonical XML)
 * @param config - the model
 * @param options - timeout, budget, back-off (ms)
 * @throws CanvasError `CHECK_MODEL_TIMEOUT`, `CHECK_MODEL_UNREACHABLE`, `CHECK_MODEL_FAILED`,
 *   `CHECK_BAD_REPLY`, `CHECK_UNKNOWN_NODES`
 */
export async function askForContradictions(read: CanvasText, config: ModelConfig, options: AskOptions = {}): Promise<Asked> {
  const index = indexNodes(parseCanvas(read.xml, read.ledger));
  const claims = [...index.values()].filter((e) => e.node.type !== 'question').map((e) => e.node.id);
  const messages = checkMessages(read);
  const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
  if (claims.length < 2) return { index, promptChars, reply: null, parsed: { contradictions: [], skipped: [] } };
  const reply = await askModel(config, messages, replySchema(claims), options);
  return { index, promptChars, reply, parsed: parseReply(reply.content, index) };
}
