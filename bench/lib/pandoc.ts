// The page-render baseline: Debian's pandoc, installed by the bench when it is missing (the
// machine is a CI box; apt-get needs root). Returns null, with the reason, when it cannot be had.
import { spawnSync } from 'node:child_process';

/** pandoc's version line, or the reason it is not available. */
export function ensurePandoc(log: (s: string) => void): { version: string } | { missing: string } {
  const version = () => {
    const r = spawnSync('pandoc', ['--version'], { encoding: 'utf8' });
    return r.status === 0 ? (r.stdout.split('\n')[0] ?? 'pandoc') : null;
  };
  const have = version();
  if (have) return { version: have };
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { missing: 'pandoc is not installed and the bench is not root (apt-get install pandoc)' };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log('installing pandoc with apt-get');
  let r = spawnSync('apt-get', ['install', '-y', '-qq', 'pandoc'], { encoding: 'utf8', env });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-qq'], { encoding: 'utf8', env });
    r = spawnSync('apt-get', ['install', '-y', '-qq', 'pandoc'], { encoding: 'utf8', env });
  }
  const now = version();
  return now ? { version: now } : { missing: `apt-get install pandoc failed: ${(r.stderr || r.stdout || '').trim().split('\n').pop() ?? ''}` };
}

/** The arguments of the baseline: a standalone HTML page from Markdown, as a CI would run it. */
export function pandocArgs(markdownFile: string, title: string): string[] {
  return ['-s', '-f', 'markdown', '-t', 'html5', '--metadata', `title=${title}`, markdownFile];
}
