import { request as httpRequest } from 'node:http';

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

/** GETs (or sends `init`) with `fetch` and returns status, headers and the JSON body. */
export async function getJson(url: string, init?: RequestInit): Promise<JsonResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseBody(text) };
}

/**
 * Sends a request whose path is written byte for byte (`fetch` normalises `..`, `%2e%2e` and
 * friends away, so hostile paths need this).
 */
export function rawRequest(
  baseUrl: string,
  options: { path: string; method?: string; headers?: Record<string, string> },
): Promise<JsonResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: options.path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status: res.statusCode ?? 0, headers, text, body: parseBody(text) });
        });
        res.on('error', reject);
      },
    );
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
