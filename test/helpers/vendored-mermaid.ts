// The pinned Mermaid package as scripts/vendor-mermaid.sh unpacks it (.vendor/mermaid/package), for
// browser tests that answer the pinned CDN URL from disk: nothing leaves the machine.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { MERMAID_PIN } from '../../src/render/figures/mermaid-pin.js';
import { ROOT } from './workspace.js';

const VENDOR = join(ROOT, '.vendor', 'mermaid', 'package');
const CDN = `https://cdn.jsdelivr.net/npm/mermaid@${MERMAID_PIN.version}/`;

/** Whether the vendored package is there (scripts/vendor-mermaid.sh has run). */
export const vendoredMermaid = existsSync(join(VENDOR, MERMAID_PIN.url.slice(CDN.length)));

/**
 * Answer a request for the pinned CDN copy from the vendored package (404 for a file it lacks).
 *
 * @returns false, answering nothing, when the request is not for the pinned CDN copy
 */
export async function answerFromVendor(route: Route): Promise<boolean> {
  const url = route.request().url();
  if (!url.startsWith(CDN)) return false;
  const file = join(VENDOR, url.slice(CDN.length).split(/[?#]/)[0]!);
  if (!file.startsWith(VENDOR) || !existsSync(file)) await route.fulfill({ status: 404, body: '' });
  else await route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: readFileSync(file) });
  return true;
}
