import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';
import { CanvasError } from '../model/canvas-error.js';
import { firstBadUtf8 } from '../model/decode-utf8-strict.js';

/** A line of the stdio transport, read without decoding: is it a request, and with what id? */
function requestOf(line: Buffer): { id: string | number } | null {
  try {
    const message = JSON.parse(line.toString('utf8')) as { id?: unknown; method?: unknown };
    const id = message?.id;
    return typeof message?.method === 'string' && (typeof id === 'string' || typeof id === 'number') ? { id } : null;
  } catch {
    return null;
  }
}

/**
 * The MCP server's standard input as the SDK's stdio transport reads it, one JSON-RPC message a
 * line, held to two rules the transport does not keep (docs/mcp.md, "Running it"):
 *
 * - **strict UTF-8**: a line that is not well-formed UTF-8 never reaches the server, so nothing
 *   the client sent is read as U+FFFD; a request among such lines is answered at once with a
 *   JSON-RPC error whose data is `BAD_ENCODING` (docs/errors.md), anything else is dropped, and
 *   each is said on standard error;
 * - **stopping**: once {@link StrictLines.stop} is called (SIGTERM), a request that arrives is
 *   answered with `SERVER_STOPPING` instead of being served, while the answers of the requests
 *   already received still go out (the client's answers to the server's own requests pass).
 *
 * A line longer than `maxLine` is passed on as it comes, for the transport to refuse by its own
 * limit. Everything else passes unchanged, line by line.
 */
export class StrictLines extends Transform {
  private partial: Buffer[] = [];
  private size = 0;
  /** Past `maxLine` without a line end: the rest of this line is passed on as it comes. */
  private through = false;
  private stopping = false;

  /**
   * @param answer - writes one JSON-RPC message, a line, to the client (the server's standard output)
   * @param maxLine - the longest line held to be checked, in bytes
   * @param say - writes one line to standard error
   */
  constructor(
    private readonly answer: (message: string) => void,
    private readonly maxLine: number,
    private readonly say: (line: string) => void,
  ) {
    super();
  }

  /** Refuse every request from now on with `SERVER_STOPPING`. */
  stop(): void {
    this.stopping = true;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let at = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, at);
      if (end < 0) break;
      const piece = chunk.subarray(at, end + 1);
      if (this.through) this.push(piece);
      else this.line(this.size === 0 ? piece : Buffer.concat([...this.partial, piece]));
      this.partial = [];
      this.size = 0;
      this.through = false;
      at = end + 1;
    }
    const rest = chunk.subarray(at);
    if (rest.length > 0) {
      if (this.through) this.push(rest);
      else {
        this.partial.push(rest);
        this.size += rest.length;
        if (this.size > this.maxLine) {
          this.push(Buffer.concat(this.partial));
          this.partial = [];
          this.size = 0;
          this.through = true;
        }
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.size > 0) this.line(Buffer.concat(this.partial));
    done();
  }

  /** One whole line, with its line end if it had one. */
  private line(line: Buffer): void {
    if (this.stopping) {
      const request = requestOf(line);
      if (request) {
        this.refuse(request.id, -32000, new CanvasError('SERVER_STOPPING', 'the server is stopping: it answers the calls under way and takes no new one', 'start the server again, then call again'));
        return;
      }
    }
    if (isUtf8(line)) {
      this.push(line);
      return;
    }
    const offset = Math.max(firstBadUtf8(line), 0);
    const error = new CanvasError('BAD_ENCODING', `the message is not well-formed UTF-8: byte offset ${offset} of the line starts no valid sequence`, 'send every message as UTF-8 JSON, one a line', { offset });
    const request = requestOf(line);
    this.say(`canvas mcp: BAD_ENCODING: a message that is not UTF-8 was refused${request ? ` (request ${JSON.stringify(request.id)})` : ''}`);
    // Parse error: the bytes are not the JSON text they claim to be.
    if (request) this.refuse(request.id, -32700, error);
  }

  private refuse(id: string | number, code: number, error: CanvasError): void {
    this.answer(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: `${error.code}: ${error.message}`, data: error.toJSON() } })}\n`);
  }
}
