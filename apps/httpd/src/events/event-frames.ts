import type { StorageEvent } from './storage-changes.js';

/**
 * One event as a `text/event-stream` frame (WHATWG HTML "Server-sent events"): its id, its
 * type as the event name, its JSON payload (without the type) on one `data` line. JSON never
 * holds a raw line break, so one line always carries it.
 */
export function toEventFrame(id: number, event: StorageEvent): string {
  const data =
    event.type === 'refs'
      ? { rid: event.rid, refs: event.refs }
      : event.type === 'repo'
        ? { rid: event.rid, public: event.public }
        : { rid: event.rid, id: event.id };
  return `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`;
}
