import { request as httpRequest } from 'node:http';
import { assertExplorerAccepts } from './explorer-schemas/index.js';
import { assertOpenApiAccepts } from './openapi-check.js';

/** A response with its body read and parsed as JSON when it is JSON. */
export interface JsonResponse {
  status: number;
  headers: Headers;
  /** Raw body text. */
  text: string;
  /** Parsed JSON, or undefined for an empty / non-JSON body. */
  body: unknown;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Opting one request out of the explorer check: the reason is required, and reported. */
export interface ExplorerCheck {
  /** Why this 2xx body may be one radicle-explorer rejects (error bodies are still checked). */
  knownExplorerMismatch?: string;
}

/**
 * GETs (or sends `init`) with `fetch` and returns status, headers and the JSON body. Every JSON
 * response is checked first: a 2xx body against radicle-explorer's schema of its route, an
 * error against `{error, code}` (see explorer-schemas/), and every response against the OpenAPI
 * document (openapi-check.ts, never opted out); a mismatch throws, failing the test.
 */
export async function getJson(url: string, init?: RequestInit, check: ExplorerCheck = {}): Promise<JsonResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  if (check.knownExplorerMismatch === undefined || !response.ok) assertExplorerAccepts({ url, status: response.status, contentType, text });
  assertOpenApiAccepts({ url, method: init?.method ?? 'GET', status: response.status, headers: response.headers, text });
  return { status: response.status, headers: response.headers, text, body: parseBody(text) };
}

/**
 * Sends a request whose path is written byte for byte (`fetch` normalises `..`, `%2e%2e` and
 * friends away, so hostile paths need this). The response is checked like {@link getJson}'s.
 */
export function rawRequest(baseUrl: string, options: { path: string; method?: string; headers?: Record<string, string> }): Promise<JsonResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: options.path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const status = res.statusCode ?? 0;
        try {
          assertExplorerAccepts({ url: `${baseUrl}${options.path}`, status, contentType: headers.get('content-type'), text });
          assertOpenApiAccepts({ url: `${baseUrl}${options.path}`, method: options.method ?? 'GET', status, headers, text });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        resolve({ status, headers, text, body: parseBody(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A response with its body read as bytes (raw files, archives, git protocol). */
export interface BytesResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** Sends a request with `fetch` and reads the body as bytes. */
export async function getBytes(url: string, init?: RequestInit): Promise<BytesResponse> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** An answer as sent: headers but `date`, the body bytes still in their content coding. */
export interface UndecodedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends a request with node:http, which (unlike `fetch`) leaves compressed bodies as they came. */
export function getUndecoded(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<UndecodedResponse> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('error', reject)
        .on('end', () => {
          const headers = Object.entries(res.headers).filter((pair): pair is [string, string] => pair[0] !== 'date' && typeof pair[1] === 'string');
          resolve({ status: res.statusCode ?? 0, headers: Object.fromEntries(headers), body: Buffer.concat(chunks) });
        });
    })
      .on('error', reject)
      .end();
  });
}
