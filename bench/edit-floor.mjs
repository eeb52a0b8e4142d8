// The CLI edit's floor (docs/performance.md, "The CLI's floor"): what any Node process pays to
// commit an edit through the git binary: Node's start, the canvas's new bytes written into a
// plain clone, and one spawned `git commit -a` of them with the reason as its message, waited for.
// No parsing, no guard, no lock.
//
// node bench/edit-floor.mjs CLONE FILE SOURCE MESSAGE GIT_ARGS_JSON
//   FILE: the canvas file in the clone; SOURCE: where the new bytes are (the store's working file)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [clone, file, source, message, gitArgs] = process.argv.slice(2);
writeFileSync(join(clone, file), readFileSync(source));
const git = spawn('git', [...JSON.parse(gitArgs), 'commit', '-q', '-a', '-F', '-'], { cwd: clone, stdio: ['pipe', 'inherit', 'inherit'] });
git.stdin.end(`${message}\n`);
git.on('close', (code) => {
  process.exitCode = code ?? 1;
});
