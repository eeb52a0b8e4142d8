import { createHash } from 'node:crypto';
import { CanvasError } from '../model/canvas-error.js';
import { indexNodes } from '../model/index-nodes.js';
import { parseAuthor } from '../model/parse-author.js';
import { parseCanvas } from '../model/parse-canvas.js';
import { type Conflict, insertNode, listProposals, type Outcome, readCanvasText, type Rejected, roleOnCanvas, type Workspace } from '../store/index.js';
import { askForContradictions } from './ask-for-contradictions.js';
import type { AskOptions } from './ask-model.js';
import { findAsking } from './find-asking.js';
import { checkModelConfig, type ModelConfig, modelConfigFromEnv } from './model-config.js';
import type { Contradiction, DroppedEntry } from './parse-reply.js';

/** The author of the checker's questions unless one is given (docs/coherence.md). */
export const CHECK_AUTHOR = 'coherence | step:check';

/** What `checkCoherence` takes. */
export interface CheckRequest extends AskOptions {
  /** The ledger id. */
  ledger: string;
  /** A commit (7+ hex) to check the canvas as it stood there; default its latest revision. */
  at?: string | undefined;
  /** Ask the model and report, but write nothing. */
  dryRun?: boolean | undefined;
  /** The author of the questions written (default `coherence | step:check`). */
  author?: string | undefined;
  /** The model; default from `CANVAS_MODEL_URL`, `CANVAS_MODEL`, `CANVAS_MODEL_API_KEY` in `env`. */
  model?: ModelConfig | undefined;
  /** The environment the model configuration is read from (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** What became of one contradiction. */
export type FindingStatus = 'asked' | 'proposed' | 'already-asked' | 'would-ask' | 'conflict' | 'rejected';

/** One contradiction the model reported, and what the checker did with it. */
export interface CheckFinding extends Contradiction {
  /** asked (a question was inserted), proposed (the author is a commenter), already-asked (an open question or an open proposal asks it, or this check already wrote it), would-ask (dry run), conflict, rejected. */
  status: FindingStatus;
  /** The question's text as written (or that would be written): the model's question and `(nodes a, b)`. */
  text: string;
  /** The node the question goes after: the latest of `nodes` in document order. */
  after: string;
  /** The question node's id: the one inserted, or the open question that already asks it. */
  node?: string | undefined;
  /** The revision the insert made (asked) or found (already-asked by a replayed key). */
  revision?: string | undefined;
  /** The proposal made (proposed), or the open proposal that already asks it (already-asked). */
  proposalId?: string | undefined;
  /** The store's outcome when it was not applied (conflict, rejected). */
  outcome?: Conflict | Rejected | undefined;
}

/** The report of one check (docs/coherence.md "The report"). */
export interface CheckReport {
  ledger: string;
  /** The revision checked: what the model read, and the base of every insert. */
  revision: string;
  /** The model asked. */
  model: string;
  dryRun: boolean;
  /** False when there was nothing to compare (fewer than two nodes that are not questions). */
  asked: boolean;
  /** Whether the reply was asked for with a JSON schema. */
  structured: boolean;
  /** Requests sent (retries included). */
  attempts: number;
  /** Characters sent (system and user messages) and tokens as the server counted them (null when it did not say). */
  usage: { promptChars: number; promptTokens: number | null; completionTokens: number | null };
  findings: CheckFinding[];
  /** Entries of the reply set aside (a question node, one node, more than eight, repeated). */
  skipped: DroppedEntry[];
  /** The canvas's revision after the check's writes (the revision checked when nothing was written). */
  head: string;
}

/** The idempotency key of one contradiction's question: from its nodes, the model and the revision checked. */
function keyOf(nodes: readonly string[], model: string, revision: string): string {
  return `check:${createHash('sha256')
    .update(JSON.stringify([[...nodes].sort(), model, revision]))
    .digest('hex')
    .slice(0, 40)}`;
}

/** The reason of one contradiction's insert: it names the nodes, the model and the revision checked. */
function reasonOf(nodes: readonly string[], model: string, revision: string): string {
  return `coherence check: ${nodes.join(', ')} contradict each other (model ${model}, revision ${revision})`;
}

/**
 * Check a canvas for contradictions between its nodes and ask each one as an open question
 * (docs/coherence.md). Reads the canvas at a revision (what `canvas read` prints), sends it to an
 * OpenAI-compatible Chat Completions model, validates the reply, and inserts one `question` per
 * contradiction after the latest of its nodes, through the store's ordinary insert: authored
 * `coherence | step:check` unless told otherwise, base the revision checked, a reason naming the
 * nodes, the model and that revision, an idempotency key derived from them. A contradiction that
 * an open question already asks (one naming all its node ids, at the revision checked or the
 * latest), or an open proposal of one, is not asked again. No lock is held
 * while the model is asked: the store takes its lock for each insert, after the reply.
 *
 * @param ws - the workspace
 * @param req - ledger, `at`, `dryRun`, author, model, timeout/budget/back-off (ms)
 * @returns the report: the revision checked, every finding with its status, the usage
 * @throws CanvasError `BAD_LEDGER_ID`, `CANVAS_NOT_FOUND`, `UNKNOWN_BASE` (a bad `at`),
 *   `CHECK_CONFIG`, `BAD_AUTHOR`, `NO_ROLE` and `ROLE_TOO_LOW` (checked before the model is asked),
 *   `CHECK_MODEL_TIMEOUT`, `CHECK_MODEL_UNREACHABLE`, `CHECK_MODEL_FAILED`, `CHECK_BAD_REPLY`,
 *   `CHECK_UNKNOWN_NODES` (nothing written); internal errors of the store
 */
export async function checkCoherence(ws: Workspace, req: CheckRequest): Promise<CheckReport> {
  const config = req.model ? checkModelConfig(req.model) : modelConfigFromEnv(req.env ?? process.env);
  const dryRun = req.dryRun === true;
  const author = parseAuthor(req.author ?? CHECK_AUTHOR);
  const read = await readCanvasText(ws, { ledger: req.ledger, at: req.at });
  if (!dryRun) {
    // The store is the authority on roles; this only spares a model call whose answer could not be written.
    const role = await roleOnCanvas(ws, { ledger: read.ledger, who: author.who });
    if (role === null || role === 'viewer') {
      throw new CanvasError(
        role === null ? 'NO_ROLE' : 'ROLE_TOO_LOW',
        `${author.who} ${role === null ? 'has no role' : 'is viewer'} on canvas ${read.ledger}; the checker's questions need editor (or commenter, as proposals)`,
        `ask an owner of ${read.ledger} to run: canvas grant ${read.ledger} ${author.who} editor --why "..." (or check with --dry-run)`,
        { who: author.who, ledger: read.ledger, needed: 'editor' },
      );
    }
  }
  const { index, promptChars, reply, parsed } = await askForContradictions(read, config, req);
  const report: CheckReport = {
    ledger: read.ledger,
    revision: read.revision,
    model: config.model,
    dryRun,
    asked: reply !== null,
    structured: reply?.structured ?? false,
    attempts: reply?.attempts ?? 0,
    usage: { promptChars, promptTokens: reply?.usage?.promptTokens ?? null, completionTokens: reply?.usage?.completionTokens ?? null },
    findings: [],
    skipped: parsed.skipped,
    head: read.revision,
  };
  // Open proposals are pending questions too: a commenter checker run twice proposes once.
  const proposals = parsed.contradictions.length > 0 ? await listProposals(ws, { ledger: read.ledger }) : [];
  // Checking an older revision (--at), the questions asked since are in the latest one.
  let latest: typeof index = new Map();
  if (parsed.contradictions.length > 0 && req.at !== undefined) {
    const now = await readCanvasText(ws, { ledger: read.ledger });
    if (now.revision !== read.revision) latest = indexNodes(parseCanvas(now.xml, now.ledger));
  }
  for (const c of parsed.contradictions) {
    const after = c.nodes[c.nodes.length - 1]!;
    const finding: CheckFinding = { ...c, status: 'would-ask', text: `${c.question} (nodes ${c.nodes.join(', ')})`, after };
    report.findings.push(finding);
    const asking = findAsking(index, proposals, c.nodes) ?? findAsking(latest, [], c.nodes);
    if (asking) {
      finding.status = 'already-asked';
      if ('node' in asking) finding.node = asking.node;
      else finding.proposalId = asking.proposalId;
      continue;
    }
    if (dryRun) continue;
    const outcome: Outcome = await insertNode(ws, {
      ledger: read.ledger,
      why: reasonOf(c.nodes, config.model, read.revision),
      author: author.text,
      base: read.revision,
      after,
      payload: { question: finding.text },
      idempotencyKey: keyOf(c.nodes, config.model, read.revision),
    });
    switch (outcome.outcome) {
      case 'applied':
        finding.status = outcome.replayed ? 'already-asked' : 'asked';
        finding.node = outcome.node ?? undefined;
        finding.revision = outcome.revision;
        if (!outcome.replayed) report.head = outcome.revision;
        break;
      case 'proposed':
        finding.status = outcome.replayed ? 'already-asked' : 'proposed';
        finding.proposalId = outcome.proposalId;
        finding.revision = outcome.revision;
        if (!outcome.replayed) report.head = outcome.revision;
        break;
      case 'conflict':
        finding.status = 'conflict';
        finding.outcome = outcome;
        break;
      case 'rejected':
        // The key was used at this revision for a differently worded question: this check ran already.
        finding.status = outcome.code === 'IDEMPOTENCY_MISMATCH' ? 'already-asked' : 'rejected';
        if (outcome.code === 'IDEMPOTENCY_MISMATCH') finding.revision = (outcome.data?.commit as string | undefined) ?? undefined;
        else finding.outcome = outcome;
        break;
    }
  }
  return report;
}
