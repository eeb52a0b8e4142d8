/** The types of scripts/build-inputs.js, for the tests that import it. */
export function isBuilt(root: string, kind: 'cli' | 'full'): boolean;
export function forgetBuilds(root: string): string;
export function recordBuilds(root: string, kinds: Array<'cli' | 'full'>, hash: string): void;
