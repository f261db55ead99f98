import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { eventually, isPlainError, pause } from './support/faults.js';
import { getJson, logLines } from './support/index.js';
import { buildFixtureHome, makeTempDir, removeTempDir } from './support/index.js';

// Faults of the server's own process, so the real CLI runs as a child (its memory and
// descriptors are its own): git missing from PATH, a process out of file descriptors, and a
// flood of distinct URLs.
const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const describeCli = existsSync(MAIN) ? describe : describe.skip;

let dir: string;
let built: BuiltHome;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildFixtureHome(join(dir, 'home'));
}, 60_000);

afterAll(() => removeTempDir(dir));

interface Cli {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Runs the CLI through `bash -c` (for `ulimit`) with `env` added to this process's environment. */
function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; ulimitFiles?: number } = {}): Cli {
  const command = `${options.ulimitFiles === undefined ? '' : `ulimit -n ${options.ulimitFiles}; `}exec "$0" "$@"`;
  // The server's own cache directory goes to the temp dir, never the user's cache home.
  const env = { ...process.env, FORGE_CACHE_DIR: join(dir, 'cache'), ...options.env };
  const child = spawn('/bin/bash', ['-c', command, process.execPath, MAIN, ...args], { env });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

async function waitForLine(cli: Cli, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(cli.stderr());
    if (match !== null) return match;
    if (cli.child.exitCode !== null) throw new Error(`exited: ${cli.stderr()}`);
    await pause(20);
  }
}

/** One request over an open keep-alive socket; resolves with status and body. */
function askOver(socket: Socket, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let answer = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      answer = Buffer.concat([answer, chunk]);
      const text = answer.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, split))?.[1] ?? -1);
      if (length < 0 || answer.length < Buffer.byteLength(text.slice(0, split + 4)) + length) return;
      socket.off('data', onData);
      resolve({ status: Number(text.split(' ')[1]), text: text.slice(split + 4) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describeCli('git missing from PATH', () => {
  it('stops at start with one clear line and exit code 1 instead of serving 500s', async () => {
    // A PATH with the usual tools but no git (some environments wrap node in `env bash` scripts).
    const bin = join(dir, 'bin-without-git');
    await mkdir(bin);
    for (const tool of ['bash', 'env', 'node', 'sh']) {
      const target = tool === 'node' ? process.execPath : `/usr/bin/${tool}`;
      if (existsSync(target)) await symlink(target, join(bin, tool));
    }
    const cli = runCli(['--home', built.home, '--listen', '127.0.0.1:0'], { env: { PATH: bin } });
    expect(await cli.exited).toBe(1);
    expect(logLines(cli.stderr())).toEqual([
      expect.objectContaining({ level: 60, event: 'start', msg: 'git was not found on PATH (forge-httpd reads repositories with git 2.36 or newer)' }),
    ]);
  });
});

describeCli('running out of file descriptors', () => {
  it('answers a plain JSON error while every descriptor is taken, stays up, and serves again once they are free', async () => {
    const cli = runCli(['--home', built.home, '--listen', '127.0.0.1:0', '--flavour', 'forge'], {
      env: { RAD_SOCKET: join(dir, 'no.sock') },
      ulimitFiles: 256,
    });
    const hogs: Socket[] = [];
    try {
      const port = Number((await waitForLine(cli, / on http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/))[1]);
      await waitForLine(cli, /ready: /);
      const probe = await open(port);
      expect((await askOver(probe, '/api/v1/node')).status).toBe(200);
      // Node loads its ES modules with many files open at once, hence not fewer than 256 to start.
      // Take every free descriptor of the server with idle connections (libuv closes those it
      // cannot accept, so the count settles when the limit is reached).
      const pid = cli.child.pid ?? 0;
      for (let i = 0; i < 320; i += 1) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        hogs.push(socket);
      }
      const descriptors = (): number => readdirSync(`/proc/${pid}/fd`).length;
      await eventually(async () => descriptors() >= 250);
      // A repository whose git processes are not running yet: they cannot start now.
      const beta = repositoryByName(built, 'beta');
      const starved = await askOver(probe, `/api/v1/repos/${beta.rid}/tree/${beta.head}/`);
      expect([starved.status, isPlainError(starved)]).toEqual([500, true]);
      // Log lines are written in batches: wait for the error line, then check it is the only one.
      const errors = (): unknown[] => logLines(cli.stderr()).filter((line) => Number(line['level']) >= 50);
      await eventually(async () => errors().length > 0);
      expect(errors()).toHaveLength(1);
      for (const socket of hogs) socket.destroy();
      await eventually(async () => descriptors() < 100);
      const recovered = await askOver(probe, `/api/v1/repos/${beta.rid}/tree/${beta.head}/`);
      expect(recovered.status).toBe(200);
      expect(cli.child.exitCode).toBeNull();
      probe.destroy();
    } finally {
      for (const socket of hogs) socket.destroy();
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});

/** Resident set size of a process, from /proc (bytes). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

describeCli('a flood of distinct URLs', () => {
  it('answers thousands of concurrent cache-missing tree and commit URLs with 404, keeps /node answering, and keeps memory bounded', async () => {
    const cli = runCli(['--home', built.home, '--listen', '127.0.0.1:0', '--flavour', 'forge'], { env: { RAD_SOCKET: join(dir, 'no.sock') } });
    try {
      const port = Number((await waitForLine(cli, / on http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/))[1]);
      await waitForLine(cli, /ready: /);
      const base = `http://127.0.0.1:${port}/api/v1`;
      const repo = repositoryByName(built, 'alpha');
      const rssBefore = rssOf(cli.child.pid ?? 0);
      const urls = Array.from({ length: 3000 }, (_, i) =>
        i % 2 === 0 ? `/repos/${repo.rid}/tree/${repo.head}/no-such-dir-${i}/` : `/repos/${repo.rid}/commits/${i.toString(16).padStart(40, 'a')}`,
      );
      const statuses = new Set<number>();
      const flood = (async () => {
        for (let start = 0; start < urls.length; start += 300) {
          const batch = await Promise.all(
            urls.slice(start, start + 300).map((url) =>
              fetch(`${base}${url}`).then(async (response) => {
                await response.arrayBuffer();
                return response.status;
              }),
            ),
          );
          for (const status of batch) statuses.add(status);
        }
      })();
      const node = await getJson(`${base}/node`);
      await flood;
      expect(node.status).toBe(200);
      expect([...statuses]).toEqual([404]);
      // Errors are not cached: what the flood leaves behind is garbage V8 has not collected yet.
      expect(rssOf(cli.child.pid ?? 0) - rssBefore).toBeLessThan(128 * 1024 * 1024);
      expect((await getJson(`${base}/repos/${repo.rid}/tree/${repo.head}/`)).status).toBe(200);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });
});
