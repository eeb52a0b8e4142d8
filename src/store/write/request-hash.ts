import { createHash } from 'node:crypto';
import type { Anchor } from '../../model/edit-tree.js';
import { serializeNode } from '../../model/serialize-node.js';
import type { EditSpec, WriteCommon } from './edit-input.js';

function anchorText(a: Anchor): string {
  return 'into' in a ? `into ${a.into}` : `after ${a.after}`;
}

/**
 * A request's parts as a stable hash: 32 hex characters of the SHA-256 of their JSON, recorded as
 * `Canvas-Request` so a replayed idempotency key can tell the same request from another
 * (docs/roles.md "Idempotency").
 */
export function hashRequest(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** A stable hash of a write request, recorded as `Canvas-Request` for idempotency. */
export function requestHash(ledger: string, spec: EditSpec, common: WriteCommon): string {
  const parts: Record<string, unknown> = { ledger, op: spec.op, why: common.why, base: common.base ?? null, require: common.require ?? null };
  if ('node' in spec) parts.node = spec.node;
  if ('anchor' in spec) parts.anchor = anchorText(spec.anchor);
  if ('payload' in spec) parts.payload = serializeNode(spec.payload, { payload: true });
  return hashRequest(parts);
}
