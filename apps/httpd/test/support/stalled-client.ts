import { connect, type Socket } from 'node:net';

/**
 * A client that asks for `path`, takes the first bytes of the answer and then stops reading:
 * what it was sent beyond them waits in the kernel and in the server. Resolves with the paused
 * socket (destroy it to leave).
 */
export function stalledClient(baseUrl: string, path: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.on('error', reject);
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}
