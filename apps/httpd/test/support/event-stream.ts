import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One event received on a stream. */
export interface ReceivedEvent {
  readonly id: string;
  readonly event: string;
  readonly data: unknown;
}

/** A `text/event-stream` answer being read, or the error answer that came instead. */
export interface EventStreamReader {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Events received so far, in order. */
  readonly events: ReceivedEvent[];
  /** Comment lines received so far (without the leading `:`, trimmed). */
  readonly comments: string[];
  /** Every byte received so far, as text. */
  text(): string;
  /** Whether the server ended the answer. */
  ended(): boolean;
  /** Waits (polling, bounded) until `condition` holds; throws past the deadline. */
  until(condition: (reader: EventStreamReader) => boolean, what: string): Promise<void>;
  close(): void;
}

/** Longest wait for something a stream should receive (polled, never slept through). */
const WAIT_MS = 15_000;

function parseFrames(buffer: string, reader: { events: ReceivedEvent[]; comments: string[] }): string {
  let rest = buffer;
  for (let end = rest.indexOf('\n\n'); end >= 0; end = rest.indexOf('\n\n')) {
    const frame = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const fields: Record<string, string> = {};
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) reader.comments.push(line.slice(1).trim());
      else {
        const colon = line.indexOf(':');
        fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
      }
    }
    if (fields.event !== undefined) reader.events.push({ id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data ?? 'null') as unknown });
  }
  return rest;
}

/**
 * Opens an event stream (or whatever answers instead) and reads it as it arrives.
 * @param url - the stream's URL
 */
export function openEventStream(url: string): Promise<EventStreamReader> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      const events: ReceivedEvent[] = [];
      const comments: string[] = [];
      let text = '';
      let pending = '';
      let ended = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        pending = parseFrames(pending + chunk, { events, comments });
      });
      const finish = (): void => {
        ended = true;
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      const reader: EventStreamReader = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        text: () => text,
        ended: () => ended,
        until: async (condition, what) => {
          const deadline = Date.now() + WAIT_MS;
          while (!condition(reader)) {
            if (Date.now() > deadline) throw new Error(`stream ${url}: ${what} not seen within ${WAIT_MS} ms; received ${JSON.stringify(text)}`);
            await new Promise((wake) => setTimeout(wake, 20));
          }
        },
        close: () => req.destroy(),
      };
      resolve(reader);
    });
    req.on('error', reject);
    req.end();
  });
}
