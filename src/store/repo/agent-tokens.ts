// The agents' bearer tokens of `canvas serve`'s MCP endpoint (docs/mcp.md, "Over HTTP"). Each
// token names one `who`; the file keeps only each token's SHA-256, never the token, outside the
// canvas history: `.git/canvas-tokens.json`, mode 0600, replaced whole under the repository lock
// (a private file renamed into place, docs/store.md "Temporary files"), so two `canvas token add`
// at once both land and a reader never sees half a file. A token is
// `canvas_<id>_<43 characters>` (32 random bytes): the id finds its entry, and the hash of the
// whole token is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CanvasError } from '../../model/canvas-error.js';
import { AUTHOR_PART } from '../../model/patterns.js';
import { ensureRepo } from './ensure-repo.js';
import { privateName } from '../files/private-name.js';
import { randomHex } from '../files/random-hex.js';
import { withRepoLock } from './repo-lock.js';
import { writePrivateFile } from '../files/write-private-file.js';
import type { Workspace } from './workspace.js';

/** One agent token as listed: never the token nor its hash. */
export interface AgentToken {
  /** 8 hex digits, also inside the token. */
  id: string;
  /** The identity the token acts as. */
  who: string;
  /** When it was added: ISO 8601 UTC. */
  created: string;
}

interface StoredToken extends AgentToken {
  /** SHA-256 of the whole token, hex. */
  hash: string;
}

const FORMAT = 1;
const TOKEN = /^canvas_([0-9a-f]{8})_[A-Za-z0-9_-]{43}$/;

const fileOf = (ws: Workspace): string => join(ws.repo, '.git', 'canvas-tokens.json');
const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The tokens each file held when last read, with the file's identity then (device, inode, size,
 * modification and change times): a request looks at the file's identity and reads it again only
 * when it changed, which every write of it does (a new file renamed into place), so a revoked
 * token is still refused at its next request.
 */
const lastRead = new Map<string, { stamp: string; tokens: readonly StoredToken[] }>();

function readTokens(ws: Workspace): readonly StoredToken[] {
  const file = fileOf(ws);
  let stamp: string;
  let text: string;
  try {
    const st = statSync(file, { bigint: true });
    stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const known = lastRead.get(file);
    if (known?.stamp === stamp) return known.tokens;
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    lastRead.delete(file);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw e;
  }
  const parsed = JSON.parse(text) as { format?: unknown; tokens?: unknown };
  const tokens =
    parsed.format !== FORMAT || !Array.isArray(parsed.tokens)
      ? []
      : (parsed.tokens as StoredToken[]).filter((t) => typeof t.id === 'string' && typeof t.who === 'string' && typeof t.hash === 'string' && typeof t.created === 'string');
  // Kept under the identity seen before the read: a file replaced in between is read again next time.
  lastRead.set(file, { stamp, tokens });
  return tokens;
}

function saveTokens(ws: Workspace, tokens: readonly StoredToken[]): void {
  const gitDir = join(ws.repo, '.git');
  const tmp = writePrivateFile(gitDir, privateName('canvas-tokens.json'), `${JSON.stringify({ format: FORMAT, tokens }, null, 2)}\n`, 0o600);
  renameSync(tmp, fileOf(ws));
}

/**
 * Add a token for `who` (`canvas token add <who>`): the token is returned once and only its hash kept.
 *
 * @param ws - the workspace (its repository is made if missing)
 * @param who - the identity, `^[A-Za-z0-9][A-Za-z0-9._@:-]*$`
 * @returns the listed entry and the token (`canvas_<id>_<43 characters>`)
 * @throws CanvasError `BAD_AUTHOR` for a who that does not match; `LOCK_TIMEOUT`, `UNSAFE_PATH`
 */
export async function addAgentToken(ws: Workspace, who: string): Promise<AgentToken & { token: string }> {
  if (!AUTHOR_PART.test(who) || who.length > 256) {
    throw new CanvasError('BAD_AUTHOR', `${JSON.stringify(who)} is not a who (^[A-Za-z0-9][A-Za-z0-9._@:-]*$, at most 256 characters)`, 'canvas token add planner');
  }
  await ensureRepo(ws);
  return withRepoLock(join(ws.repo, '.git'), async () => {
    const tokens = readTokens(ws);
    let id = randomHex(8);
    while (tokens.some((t) => t.id === id)) id = randomHex(8);
    const token = `canvas_${id}_${randomBytes(32).toString('base64url')}`;
    const entry: StoredToken = { id, who, created: new Date().toISOString(), hash: hashOf(token) };
    saveTokens(ws, [...tokens, entry]);
    return { id, who, created: entry.created, token };
  });
}

/**
 * The tokens added and not revoked (`canvas token list`), oldest first: ids, whos and dates only.
 *
 * @param ws - the workspace
 */
export function listAgentTokens(ws: Workspace): AgentToken[] {
  return readTokens(ws).map(({ id, who, created }) => ({ id, who, created }));
}

/**
 * Revoke tokens (`canvas token revoke <who|id>`): the one with this id, else every token of this
 * who. A revoked token is refused at its next request: the server looks at the file at each request.
 *
 * @param ws - the workspace
 * @param whoOrId - a token's id (8 hex digits) or a who
 * @returns the entries revoked
 * @throws CanvasError `TOKEN_NOT_FOUND` when nothing matches; `LOCK_TIMEOUT`, `UNSAFE_PATH`
 */
export async function revokeAgentToken(ws: Workspace, whoOrId: string): Promise<AgentToken[]> {
  const missing = () => new CanvasError('TOKEN_NOT_FOUND', `no agent token has the id or the who ${JSON.stringify(whoOrId)}`, 'canvas token list shows each token’s id and who', { given: whoOrId });
  if (readTokens(ws).length === 0) throw missing();
  return withRepoLock(join(ws.repo, '.git'), async () => {
    const tokens = readTokens(ws);
    const byId = tokens.filter((t) => t.id === whoOrId);
    const gone = byId.length > 0 ? byId : tokens.filter((t) => t.who === whoOrId);
    if (gone.length === 0) throw missing();
    saveTokens(
      ws,
      tokens.filter((t) => !gone.includes(t)),
    );
    return gone.map(({ id, who, created }) => ({ id, who, created }));
  });
}

/**
 * The who a bearer token acts as, or null when it is no token of this workspace (malformed,
 * unknown, revoked). The file is read at each call, so a revoke takes effect at the next request;
 * the hashes are compared in constant time.
 *
 * @param ws - the workspace
 * @param token - what followed `Bearer ` in the request
 */
export function whoOfAgentToken(ws: Workspace, token: string): string | null {
  const m = TOKEN.exec(token);
  if (m === null) return null;
  const given = Buffer.from(hashOf(token), 'hex');
  let who: string | null = null;
  for (const t of readTokens(ws)) {
    const stored = Buffer.from(t.hash, 'hex');
    // Every entry of the id is compared, so the time spent does not tell which one matched.
    if (t.id === m[1] && stored.length === given.length && timingSafeEqual(stored, given)) who = t.who;
  }
  return who;
}
