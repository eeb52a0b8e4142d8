/** The types of scripts/example-workspace.js, for the tests that import it. */
export function makeExampleWorkspace(dir: string, run?: (env: Record<string, string>, args: string[]) => string | Promise<string>): Promise<void>;
