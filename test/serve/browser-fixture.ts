import { type Browser, type BrowserContext, chromium, type LaunchOptions } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type Served, servedWorkspace } from './serve-fixture.js';

/**
 * Chromium and a served workspace for the tests of one describe block (call it inside the block):
 * both started before its tests and handed to `started`; after each test the contexts it opened
 * (pushed to `contexts`) are closed, since a page left open stays live and redraws at every later
 * test's edits (docs/testing.md, "Pages closed"); at the end both are closed.
 */
export function chromiumAndServed(launch: LaunchOptions, contexts: BrowserContext[], started: (browser: Browser, served: Served) => void): void {
  let browser: Browser | undefined;
  let served: Served | undefined;
  beforeAll(async () => {
    browser = await chromium.launch(launch);
    served = await servedWorkspace();
    started(browser, served);
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.server.close();
  });
}
