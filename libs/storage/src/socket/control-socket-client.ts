import { createConnection } from 'node:net';

/** Replies longer than this are not a status or config answer; the connection is dropped. */
const MAX_REPLY_BYTES = 1024 * 1024;

type JsonObject = Record<string, unknown>;

function parseObjectLine(line: string | null): JsonObject | null {
  if (line === null) return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

/**
 * Client of the node's control socket (docs/node-home.md §9, docs/radicle-httpd.md §8 and docs/decisions.md): one new
 * connection per command, one JSON line written, the first reply line read. Every call has a
 * hard timeout after which the socket is destroyed, never throws, and may run concurrently
 * with others.
 */
export class ControlSocketClient {
  /** @param socketPath - `RAD_SOCKET`, else `<home>/node/control.sock` (the caller decides) */
  constructor(readonly socketPath: string) {}

  /**
   * Whether the node is running: true iff a reply line parsing as a JSON object arrives in
   * time. Like heartwood's untagged reply type, an `{"error":…}` object also counts.
   */
  async status(timeoutMs: number): Promise<boolean> {
    return parseObjectLine(await this.command('status', timeoutMs)) !== null;
  }

  /**
   * The running node's configuration (the `node` object of config.json), unchanged; null on
   * timeout, connection failure, an `{"error":…}` reply or a reply that is not an object.
   */
  async config(timeoutMs: number): Promise<JsonObject | null> {
    return (await this.configReply(timeoutMs))?.value ?? null;
  }

  /**
   * Like {@link config}, but also returns the reply line verbatim, for callers that must keep
   * number spellings such as `5.0` which `JSON.parse` loses.
   */
  async configReply(timeoutMs: number): Promise<{ value: JsonObject; text: string } | null> {
    const text = await this.command('config', timeoutMs);
    const value = parseObjectLine(text);
    if (text === null || value === null || typeof value['error'] === 'string') return null;
    return { value, text: text.trim() };
  }

  /** Sends `{"command":<name>}` and resolves with the first reply line, or null on failure. */
  private command(name: string, timeoutMs: number): Promise<string | null> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const socket = createConnection({ path: this.socketPath });
      const finish = (line: string | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve(line);
      };
      const timer = setTimeout(() => finish(null), timeoutMs);
      socket.on('connect', () => socket.write(`${JSON.stringify({ command: name })}\n`));
      socket.on('data', (chunk: Buffer) => {
        const newline = chunk.indexOf(0x0a);
        chunks.push(newline >= 0 ? chunk.subarray(0, newline) : chunk);
        size += chunk.length;
        if (newline >= 0) finish(Buffer.concat(chunks).toString('utf8'));
        else if (size > MAX_REPLY_BYTES) finish(null);
      });
      // A reply closed without a final newline still counts as a line (like BufRead::lines).
      socket.on('end', () => finish(size > 0 ? Buffer.concat(chunks).toString('utf8') : null));
      socket.on('error', () => finish(null));
      socket.on('close', () => finish(null));
    });
  }
}
