import { main } from './main.js';

// A reader that stops early (`canvas read x | head -1`) closes the pipe: that is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
