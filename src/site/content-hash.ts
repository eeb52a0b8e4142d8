import { createHash } from 'node:crypto';

/**
 * The hash the manifest records for an output file (docs/site.md, "Incremental"): the first 16
 * hex digits of the SHA-256 of its UTF-8 bytes.
 *
 * @param text - the file's content
 */
export function contentHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
