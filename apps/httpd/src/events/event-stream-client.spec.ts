import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamClient } from './event-stream-client.js';

/** A real response on a real connection whose client never reads, and what the server-side socket held. */
async function withStalledResponse(use: (response: ServerResponse) => Promise<void>): Promise<void> {
  let served: (response: ServerResponse) => void = () => undefined;
  const response = new Promise<ServerResponse>((resolve) => (served = resolve));
  const server = createServer((_request, answer) => {
    answer.writeHead(200, { 'content-type': 'text/event-stream' });
    served(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' }, (incoming) => incoming.pause());
  // Dropping the client resets its connection: expected here.
  client.on('error', () => undefined);
  client.end();
  try {
    await use(await response);
  } finally {
    client.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('one event stream client', () => {
  it('drops a client that leaves more than its bound unread, instead of holding more', async () => {
    await withStalledResponse(async (response) => {
      const client = new EventStreamClient(response, null, 64 * 1024);
      const frame = `data: ${'x'.repeat(16 * 1024)}\n\n`;
      // Far more than the kernel's buffers take: the rest waits in the response until the bound.
      for (let written = 0; written < 4096 && !client.closed; written += 1) client.write(frame);
      expect(client.closed).toBe(true);
      expect(response.destroyed).toBe(true);
    });
  });

  it('writes nothing more once ended', async () => {
    await withStalledResponse(async (response) => {
      const client = new EventStreamClient(response, null, 1024);
      client.write(': ready\n\n');
      client.end();
      client.write(': keep-alive\n\n');
      expect([client.closed, response.writableEnded]).toEqual([true, true]);
    });
  });
});
