/**
 * forge-httpd as the benchmark runs it: the built CLI in its own process on a free port, so
 * its RSS and CPU are its own and a restart gives a truly cold server.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnServer, stopChild, waitForHttp } from './processes.js';

/** A running forge-httpd. */
export interface ForgeServer {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Repository root (this file is tools/dist/bench/forge-server.js after the build). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Starts `node apps/httpd/dist/main.js --home <home>` and waits until it answers. */
export async function startForge(home: string): Promise<ForgeServer> {
  const port = await freePort();
  const main = path.join(REPO_ROOT, 'apps', 'httpd', 'dist', 'main.js');
  const server = spawnServer(process.execPath, [main, '--home', home, '--listen', `127.0.0.1:${port}`], {
    env: { ...process.env, RAD_SOCKET: path.join(home, 'node', 'no-such.sock') },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/api/v1`, 30_000, server.child);
  } catch (error) {
    await stopChild(server.child);
    throw new Error(`forge-httpd did not start: ${(error as Error).message}\n${server.log()}`);
  }
  return { baseUrl, pid: server.child.pid ?? 0, stop: () => stopChild(server.child) };
}
