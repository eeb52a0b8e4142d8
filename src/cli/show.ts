/**
 * Write to standard output and wait until the stream has taken it: what a command records as
 * shown (an inbox acknowledged, a session's cursor) is recorded only after it was shown.
 *
 * @param text - what to print
 * @returns resolves once the stream has taken the text; rejects with the stream's error
 */
export function show(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (e) => (e ? reject(e) : resolve()));
  });
}
