/**
 * The declared surface of `task-canvas/site` (docs/library.md, "Entries"): the static site build.
 * Every export is named here (no `export *`); a test checks the sorted list.
 */
export { type BuildOptions, type BuildReport, buildSite } from './build-site.js';
export { loadRenderers } from './load-renderers.js';
export type { SiteRenderers } from './site-types.js';
