import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/command-names.js';
import { buildProgram, COMMAND_GROUPS } from '../../src/cli/main.js';

describe('the command groups main registers one at a time', () => {
  it('each group registers exactly the names listed for it, and together they are every command', () => {
    const all = buildProgram().commands.map((c) => c.name());
    const listed = COMMAND_GROUPS.flatMap(([, names]) => names);
    expect([...listed].sort()).toEqual([...all].sort());
    expect(new Set(listed).size).toBe(listed.length);
    for (const [, names] of COMMAND_GROUPS) {
      for (const name of names) expect(buildProgram(name).commands.map((c) => c.name())).toEqual([...names]);
    }
    // A name no group lists registers everything (so commander can say it is unknown).
    expect(buildProgram('nope').commands.map((c) => c.name())).toEqual(all);
  });

  it('the start knows every command by name (it keeps a compile cache per command)', () => {
    expect([...COMMAND_NAMES].sort()).toEqual(
      buildProgram()
        .commands.map((c) => c.name())
        .sort(),
    );
  });
});
