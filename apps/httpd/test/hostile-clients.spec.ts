import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Rid } from '@forge-httpd/identity';
import { ABSENT_RID, buildFixtureHome, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';
import { repositoryByName } from '@forge-httpd/builder';

// What a hostile or broken client does below the routes: every answer is our JSON error with
// CORS headers, and a private repository's 404 takes the absent repository's path.
let dir: string;
let server: TestServer;
let secret: Rid;
let port: number;

beforeAll(async () => {
  dir = await makeTempDir();
  const built = await buildFixtureHome(join(dir, 'home'));
  secret = repositoryByName(built, 'secret').rid;
  server = await startTestServer({ home: built.home, requestTimeoutMs: 600 });
  port = Number(new URL(server.baseUrl).port);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

/** Sends raw bytes and collects everything until the server closes the connection. */
function exchange(bytes: string | Buffer, options: { endAfterMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
    if (options.endAfterMs !== undefined) setTimeout(() => socket.destroy(), options.endAfterMs);
  });
}

function parse(answer: string): { status: number; headers: Map<string, string>; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('errors below the routes', () => {
  it.each([
    ['a URL over 16 KiB', `GET /api/v1/repos?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'Request Header Fields Too Large'],
    ['a NUL in the request line', 'GET /api/v1/\0node HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'Bad Request'],
    ['a space in the path', 'GET /api/v1/no de HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'Bad Request'],
    ['a header without a colon', 'GET /api/v1/node HTTP/1.1\r\nHost x\r\n\r\n', 400, 'Bad Request'],
  ])('answers %s with our JSON error and CORS headers', async (_name, request, status, reason) => {
    const answer = parse(await exchange(request));
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error: reason, code: status });
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers CONNECT with 405 and the allowed methods', async () => {
    const answer = parse(await exchange('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'));
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({ error: 'Method Not Allowed', code: 405 });
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 408 to a client that sends part of a request and waits, then closes the connection', async () => {
    const answer = parse(await exchange('GET /api/v1/node HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ error: 'Request Timeout', code: 408 });
  });

  it('keeps answering other clients meanwhile', async () => {
    const slow = exchange('GET /api/v1/node HTTP/1.1\r\nHost: x\r\n');
    const response = await getJson(`${server.baseUrl}/api/v1/repos`);
    expect(response.status).toBe(200);
    await slow;
  });
});

describe('private == absent, by path', () => {
  it('answers a private repository without opening it, like an absent one', async () => {
    const opened: string[] = [];
    const stop = server.server.home.storage.observeOpens((rid) => opened.push(rid));
    try {
      for (const rid of [secret, ABSENT_RID]) {
        for (const path of ['', '/commits', '/issues', '/patches', '/remotes', '/activity']) {
          const response = await getJson(`${server.baseUrl}/api/v1/repos/${rid}${path}`);
          expect([response.status, response.text]).toEqual([404, '{"error":"Not Found","code":404}']);
        }
      }
      expect(opened).toEqual([]);
    } finally {
      stop();
    }
  });
});
