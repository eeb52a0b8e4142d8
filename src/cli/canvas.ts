import { main } from './main.js';
import { deferStdio } from './write-stdout.js';

// A reader that stops early (`canvas read x | head -1`) closes the pipe: that is not an error.
// Each stream gets the handler when something first uses it (src/cli/write-stdout.ts).
deferStdio((stream) => {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
