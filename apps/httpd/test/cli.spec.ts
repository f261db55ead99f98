import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFixtureHome, logLines, makeTempDir, removeTempDir, tempSocketPath } from './support/index.js';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const hasDist = existsSync(MAIN);
if (!hasDist) {
  console.warn(`CLI tests skipped: ${MAIN} is missing (npm test builds it; or run npm run build)`);
}
const describeCli = hasDist ? describe : describe.skip;
/** The servers' cache directory, in the spec's temp dir (never the user's cache home). */
let cacheDir = '';

/** The start-up line saying where the server listens (logs are JSON lines off a terminal). */
const SERVING = '"msg":"serving ';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, FORGE_CACHE_DIR: cacheDir, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts the CLI and resolves once it logs that it is serving, with everything it logged so far
 * (`line`) and a reader of all it logs later; the caller stops it by pid.
 */
function serveCli(args: string[], env: Record<string, string> = { FORGE_HOME: '' }): Promise<{ child: ChildProcess; line: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, FORGE_LOG_LEVEL: '', FORGE_CACHE_DIR: cacheDir, ...env } });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(SERVING)) resolve({ child, line: stderr, stderr: () => stderr });
    });
    child.on('close', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('close');
    child.on('close', (code) => resolve(code));
    child.kill(signal);
  });
}

/**
 * Stops the server and expects exit 0; otherwise the failure shows the end of its stderr (which
 * process failed, and how: a failure seen once under load is otherwise lost).
 */
async function expectCleanStop(child: ChildProcess, stderr: () => string): Promise<void> {
  const code = await stop(child, 'SIGTERM');
  expect({ code, stderrTail: code === 0 ? '' : stderr().slice(-6000) }).toEqual({ code: 0, stderrTail: '' });
}

function getOverSocket(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describeCli('forge-httpd command line', () => {
  let dir: string;
  let home: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    cacheDir = join(dir, 'cache');
    home = (await buildFixtureHome(join(dir, 'home'))).home;
  }, 60_000);

  afterAll(() => removeTempDir(dir));

  it('prints the usage on --help and exits 0', async () => {
    const exit = await runCli(['--help']);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(/^Usage: forge-httpd \[--home DIR\] \[--listen HOST:PORT \| UNIX_SOCKET_PATH\]/);
  });

  it('prints the version on --version and exits 0', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: 'forge-httpd 0.1.0\n', stderr: '' });
  });

  it.each([[['--bogus']], [['extra']], [['--flavour', 'git']], [['--listen', 'nowhere']], [['--home']]])(
    'exits 2 with the usage on stderr for %j',
    async (args) => {
      const exit = await runCli(args);
      expect(exit.code).toBe(2);
      expect(exit.stdout).toBe('');
      expect(exit.stderr).toMatch(/^forge-httpd: .+\n\nUsage: forge-httpd/);
    },
  );

  it('exits 1 with one clear line when the home does not exist', async () => {
    const exit = await runCli(['--home', join(dir, 'missing')]);
    expect(exit.code).toBe(1);
    expect(logLines(exit.stderr)).toEqual([expect.objectContaining({ level: 60, event: 'start', msg: `node home ${join(dir, 'missing')} does not exist` })]);
  });

  it('serves FORGE_HOME on a TCP port and stops on SIGTERM', async () => {
    const { child, line } = await serveCli(['--listen', '127.0.0.1:0'], { FORGE_HOME: home });
    try {
      const url = /on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(line)?.[1];
      expect(line).toContain(`serving ${home} (FORGE_HOME, flavour forge)`);
      expect(line).toMatch(/flavour forge \(auto: the identity of rad:z\w+ is an xyz\.forge\.id object\)/);
      const response = await fetch(`${url}/api/v1`);
      expect(response.status).toBe(200);
    } finally {
      expect(await stop(child, 'SIGTERM')).toBe(0);
    }
  });

  it('bounds its heap growth and young generation by --memory-budget and shows them in the metrics', async () => {
    const metricsPort = await freeTcpPort();
    const { child, stderr } = await serveCli([
      '--home',
      home,
      '--listen',
      '127.0.0.1:0',
      '--memory-budget',
      '96',
      '--metrics-listen',
      `127.0.0.1:${metricsPort}`,
    ]);
    try {
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const gauge = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
      // Half the budget.
      expect(gauge('forge_heap_headroom_bytes')).toBe(48 * 1024 * 1024);
      expect(gauge('forge_heap_live_bytes')).toBeGreaterThan(0);
      // A small home: V8's own growth stays under the headroom, or at least a quarter is asked.
      const percent = gauge('forge_heap_growing_percent');
      expect(percent === 0 || (percent >= 25 && percent < 300)).toBe(true);
      // An eighth of the budget; V8 alone grows it to 16–32 MiB while the server loads.
      expect(gauge('forge_heap_young_generation_max_bytes')).toBe(12 * 1024 * 1024);
      const young = gauge('forge_heap_young_generation_bytes');
      expect(young).toBeGreaterThan(0);
      expect(young).toBeLessThanOrEqual(12 * 1024 * 1024);
      // The native release of malloc's free memory is built and wired (it releases once the
      // size moved by 4 MiB; platform/free-memory-release.spec.ts shows what it takes off).
      expect(gauge('forge_memory_releases_total')).toBeGreaterThanOrEqual(0);
      expect(gauge('forge_memory_released_bytes_total')).toBeGreaterThanOrEqual(0);
      expect(gauge('forge_memory_release_seconds_total')).toBeGreaterThanOrEqual(0);
      if (process.platform === 'linux') expect(stderr()).not.toContain('free memory is not handed back');
    } finally {
      expect(await stop(child, 'SIGTERM')).toBe(0);
    }
  });

  it('serves a radicle-flavour home found through RAD_HOME as radicle without flags', async () => {
    const radicleHome = (await buildFixtureHome(join(dir, 'radicle-home'), 'radicle')).home;
    const { child, line } = await serveCli(['--listen', '127.0.0.1:0'], { FORGE_HOME: '', RAD_HOME: radicleHome });
    try {
      expect(line).toMatch(/flavour radicle \(auto: the identity of rad:z\w+ is an xyz\.radicle\.id object\)/);
      expect(line).toContain(`serving ${radicleHome} (RAD_HOME, flavour radicle)`);
      const url = /on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(line)?.[1];
      const repos = (await (await fetch(`${url}/api/v1/repos?show=all`)).json()) as { payloads: Record<string, unknown> }[];
      expect(repos).toHaveLength(4);
      expect(repos.every((repo) => 'xyz.radicle.project' in repo.payloads)).toBe(true);
    } finally {
      expect(await stop(child, 'SIGTERM')).toBe(0);
    }
  });

  it('stops on SIGTERM while a client holds half a request, closing its connection', async () => {
    const { child, line } = await serveCli(['--home', home, '--listen', '127.0.0.1:0']);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)?.[1]);
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.write('GET /api/v1/node HTTP/1.1\r\nHost: x\r\nX-Half: ', () => resolve()));
    // Held well past the grace period if shutdown waited for the client (its request timeout is 30 s).
    expect(await stop(child, 'SIGTERM')).toBe(0);
    await closed;
  }, 15_000);

  it('listens on a Unix socket, replacing a stale socket file left by a killed server', async () => {
    const socketPath = tempSocketPath('cli');
    const first = await serveCli(['--home', home, '--listen', socketPath]);
    expect((await getOverSocket(socketPath, '/api/v1/stats')).body).toBe('{"repos":{"total":4}}');
    await stop(first.child, 'SIGKILL');
    expect(existsSync(socketPath)).toBe(true);
    const second = await serveCli(['--home', home, '--listen', socketPath]);
    try {
      expect(second.line).toContain(`unix:${socketPath}`);
      expect((await getOverSocket(socketPath, '/api/v1/node')).status).toBe(200);
    } finally {
      expect(await stop(second.child, 'SIGTERM')).toBe(0);
    }
  });

  it.each([
    ['info', false],
    ['debug', true],
  ])(
    'at --log-level %s logs one JSON line per request, the query only at debug (%s)',
    async (level, withQuery) => {
      const { child, line, stderr } = await serveCli(['--home', home, '--listen', '127.0.0.1:0', '--log-level', level]);
      const url = /on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(line)?.[1];
      try {
        await waitFor(() => stderr().includes('"event":"ready"'));
        // After ready, issues and patches are evaluated in the background; the pass says so once.
        await waitFor(() => stderr().includes('"event":"cobs-ahead"'));
        const response = await fetch(`${url}/api/v1/repos?show=all&per-page=3`, { headers: { 'x-request-id': 'from-the-proxy-1' } });
        expect(response.status).toBe(200);
        child.kill('SIGHUP');
        await waitFor(() => stderr().includes('"event":"reload"'));
      } finally {
        expect(await stop(child, 'SIGTERM')).toBe(0);
      }
      const lines = logLines(stderr());
      expect(lines.filter((entry) => entry['reqId'] === 'from-the-proxy-1')).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'request',
          method: 'GET',
          route: '/api/v1/repos',
          path: '/api/v1/repos',
          status: 200,
          bytes: expect.any(Number),
          ms: expect.any(Number),
        }),
      ]);
      expect(stderr().includes('show=all')).toBe(withQuery);
      expect(lines.map((entry) => entry['event']).filter((event) => event !== undefined)).toEqual(
        expect.arrayContaining(['start', 'ready', 'cobs-ahead', 'reload', 'stop']),
      );
      expect(lines.filter((entry) => entry['event'] === 'cobs-ahead')).toEqual([
        expect.objectContaining({ level: 30, complete: true, repositories: expect.any(Number), objects: expect.any(Number) }),
      ]);
    },
    20_000,
  );

  it('serves with --workers 2: requests spread over both, one metrics view, a dead worker replaced', async () => {
    const metricsPort = await freeTcpPort();
    const { child, line, stderr } = await serveCli([
      '--home',
      home,
      '--listen',
      '127.0.0.1:0',
      '--workers',
      '2',
      '--metrics-listen',
      `127.0.0.1:${metricsPort}`,
    ]);
    const url = /on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1 with 2 workers/.exec(line)?.[1];
    try {
      await waitFor(() => stderr().includes('(2 workers)"'));
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`${url}/api/v1/stats`, { headers: { connection: 'close' } }).then((r) => r.status)),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
      // Request lines are written in batches: wait until all twenty are out.
      const statsLines = () => logLines(stderr()).filter((entry) => entry['path'] === '/api/v1/stats');
      await waitFor(() => statsLines().length === 20);
      const servedBy = new Set(statsLines().map((entry) => entry['worker']));
      expect(servedBy).toEqual(new Set([1, 2]));
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(/forge_http_requests_total\{method="GET",route="\/api\/v1\/stats",status="200"\} 20\n/);
      expect(await (await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).json()).toEqual({ status: 'ready' });
      // A worker killed while serving is replaced; the address keeps answering meanwhile.
      const workers = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ').map(Number);
      expect(workers).toHaveLength(2);
      process.kill(workers[0] as number, 'SIGKILL');
      await waitFor(() => /worker \d exited \(SIGKILL\) while serving: starting another/.test(stderr()));
      expect((await fetch(`${url}/api/v1/stats`)).status).toBe(200);
      await waitFor(() => logLines(stderr()).some((entry) => entry['worker'] === 3));
    } finally {
      await expectCleanStop(child, stderr);
    }
  }, 30_000);

  it('exits 0 when stopped while a replacement worker is still starting', async () => {
    const { child, stderr } = await serveCli(['--home', home, '--listen', '127.0.0.1:0', '--workers', '2']);
    await waitFor(() => stderr().includes('(2 workers)"'));
    const children = () => readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
    const [first] = children();
    process.kill(first as number, 'SIGKILL');
    // The replacement exists as a process long before it has loaded the server (and its own
    // signal handlers): the SIGTERM sent to it then ends it, which is the stop asked for.
    await waitFor(() => children().length === 2 && !children().includes(first as number));
    await expectCleanStop(child, stderr);
  }, 30_000);

  it('exits 2 with the usage for --workers 0', async () => {
    const exit = await runCli(['--workers', '0']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/^forge-httpd: Invalid --workers: expected an integer from 1 to 64\n\nUsage/);
  });

  it('exits 2 with the usage for an unknown --log-level', async () => {
    const exit = await runCli(['--log-level', 'loud']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/^forge-httpd: Invalid --log-level: expected one of silent, fatal, error, warn, info, debug, trace\n\nUsage/);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A TCP port nobody listens on now (the metrics listener needs a fixed one to be found). */
function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
