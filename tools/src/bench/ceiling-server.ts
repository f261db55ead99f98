/**
 * The HTTP ceiling: a bare Fastify server that answers each captured URL with the identical
 * status, headers and body bytes forge-httpd gave. No handler can beat it on this machine.
 * It runs as its own process (this file is also its entry point), because a Fastify server in
 * the runner process, whose heap has built node homes, is measurably slower (~25 %).
 */
import { request as httpRequest } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { freePort, spawnServer, stopChild, waitForHttp } from './processes.js';

/** One captured response. */
export interface CapturedResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** A running ceiling server. */
export interface CeilingServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

const HERE = fileURLToPath(import.meta.url);
const HOP_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** GETs `url` the way wrk does (no Accept-Encoding), returning the raw answer. */
export function rawGet(url: string): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers)) {
          if (value !== undefined && !HOP_HEADERS.has(key)) headers[key] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Fetches every path once from `baseUrl` and keeps the answers for the ceiling. */
export async function captureResponses(baseUrl: string, paths: readonly string[]): Promise<Map<string, CapturedResponse>> {
  const captured = new Map<string, CapturedResponse>();
  for (const p of new Set(paths)) captured.set(p, await rawGet(baseUrl + p));
  return captured;
}

/** Starts the ceiling in a child process serving `responses`; `scratchDir` holds their file. */
export async function startCeiling(responses: ReadonlyMap<string, CapturedResponse>, scratchDir: string): Promise<CeilingServer> {
  const file = path.join(scratchDir, `ceiling-${process.pid}-${Date.now()}.json`);
  const entries = [...responses].map(([url, r]) => ({ url, status: r.status, headers: r.headers, body: r.body.toString('base64') }));
  await writeFile(file, JSON.stringify(entries));
  const port = await freePort();
  const server = spawnServer(process.execPath, [HERE, file, String(port)]);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/__ceiling_ready`, 15_000, server.child);
  } catch (error) {
    await stopChild(server.child);
    throw new Error(`ceiling server did not start: ${(error as Error).message}\n${server.log()}`);
  }
  return { baseUrl, stop: () => stopChild(server.child) };
}

async function serveCeiling(file: string, port: number): Promise<void> {
  const entries = JSON.parse(await readFile(file, 'utf8')) as Array<{ url: string; status: number; headers: Record<string, string>; body: string }>;
  const responses = new Map(entries.map((e) => [e.url, { status: e.status, headers: e.headers, body: Buffer.from(e.body, 'base64') }]));
  const app = Fastify({ logger: false });
  app.get('/*', (request, reply) => {
    const hit = responses.get(request.url);
    if (hit === undefined) return reply.code(404).send();
    return reply.code(hit.status).headers(hit.headers).send(hit.body);
  });
  await app.listen({ host: '127.0.0.1', port });
}

if (process.argv[1] === HERE) {
  serveCeiling(process.argv[2] ?? '', Number(process.argv[3])).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
