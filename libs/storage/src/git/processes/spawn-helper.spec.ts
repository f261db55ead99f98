import { ProcessFailedError } from '@forge-httpd/identity';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { CatFileProcess } from './cat-file-process.js';
import { BIG_SIZE, looseFixtureForSpec } from '../write/fixture-repo.testing.js';
import { BACKGROUND_NICENESS, runInBackground } from './process-priority.js';
import { runGit } from './run-git.js';
import type { GitChildProcess } from './git-child-process.js';
import { GitSpawnHelper } from './spawn-helper.js';
import { waitUntil } from '../../wait-until.testing.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

const spec = looseFixtureForSpec();

/** The nice value of `pid` (field 19 of /proc/PID/stat). */
function niceness(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The parent process id of `pid` (field 4 of /proc/PID/stat). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function exitOf(child: GitChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}

describe('git through the spawn helper', () => {
  let release: () => void;
  beforeAll(async () => {
    release = await runtime.processes.useSpawnHelper();
  });
  afterAll(() => release());

  it('starts git as the helper’s child, with stdin, stdout, stderr and the exit code', async () => {
    const child = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch-check']);
    child.stdin.write(`${spec.fixture.blobs.readme}\n`);
    const ended = exitOf(child);
    // git waits for the end of its input: still running when its parent is looked at.
    await waitUntil(() => child.pid !== undefined);
    expect(parentOf(child.pid as number)).not.toBe(process.pid);
    child.stdin.end();
    expect(await ended).toEqual({ code: 0, signal: null, out: `${spec.fixture.blobs.readme} blob 6\n`, err: '' });
    const failing = exitOf(runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '-t', '0'.repeat(40)]));
    expect(await failing).toMatchObject({ code: 128, out: '', err: expect.stringContaining('fatal') });
  });

  it('runs commands and long-lived readers alike', async () => {
    const { stdout } = await runGit({ processes: runtime.processes, gitDir: spec.fixture.gitDir, args: ['rev-parse', 'refs/heads/side'] });
    expect(stdout.toString().trim()).toBe(spec.fixture.commits.c3);
    await expect(
      runGit({ processes: runtime.processes, gitDir: spec.fixture.gitDir, args: ['rev-parse', '--verify', 'refs/heads/none'] }),
    ).rejects.toBeInstanceOf(ProcessFailedError);
    const catFile = new CatFileProcess(spec.fixture.gitDir, { processes: runtime.processes, idleMs: 60_000 });
    try {
      const answers = await Promise.all([catFile.request(spec.fixture.blobs.readme, true), catFile.request(spec.fixture.blobs.big, false)]);
      expect(answers[0]).toMatchObject({ found: true, type: 'blob', size: 6 });
      expect(answers[1]).toEqual({ found: true, oid: spec.fixture.blobs.big, type: 'blob', size: BIG_SIZE });
      expect(parentOf(catFile.pid as number)).not.toBe(process.pid);
    } finally {
      catFile.close();
    }
  });

  it('passes large input and output through untouched', async () => {
    const { stdout } = await runGit({ processes: runtime.processes, gitDir: spec.fixture.gitDir, args: ['cat-file', 'blob', spec.fixture.blobs.big] });
    expect(stdout.length).toBe(BIG_SIZE);
    const input = `${'x'.repeat(1_000_000)}\n`;
    const child = runtime.processes.spawn(spec.fixture.gitDir, ['hash-object', '--stdin']);
    child.stdin.end(input);
    const direct = await runGit({ processes: runtime.processes, gitDir: spec.fixture.gitDir, args: ['hash-object', '--stdin'], input });
    expect((await exitOf(child)).out).toBe(direct.stdout.toString());
  });

  it('kills a process before and after it runs', async () => {
    const early = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch']);
    early.kill('SIGKILL');
    expect(await exitOf(early)).toMatchObject({ code: null, signal: 'SIGKILL' });
    const late = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch']);
    await waitUntil(() => late.pid !== undefined);
    late.kill('SIGTERM');
    expect(await exitOf(late)).toMatchObject({ code: null, signal: 'SIGTERM' });
  });

  it('runs background work at a lower CPU priority, also when the pid arrives later', async () => {
    const child = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch']);
    expect(child.pid).toBeUndefined();
    runInBackground(child);
    const ended = exitOf(child);
    await waitUntil(() => child.pid !== undefined && niceness(child.pid) === BACKGROUND_NICENESS);
    child.stdin.end();
    await ended;
  });

  it('starts every one of many concurrent processes with its own environment', async () => {
    // Requests arrive over IPC before their connections: each must keep the environment it
    // was asked with, not the one of whichever spawn was requested last.
    const helper = await GitSpawnHelper.start();
    try {
      const runs = Array.from({ length: 120 }, (_, index) => {
        const env = { PATH: process.env['PATH'], GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'forge.marker', GIT_CONFIG_VALUE_0: `spawn-${index}` };
        return exitOf(helper.spawn(runtime.processes.spawner.gitBinary(), ['config', '--get', 'forge.marker'], env));
      });
      const outputs = (await Promise.all(runs)).map((run) => run.out.trim());
      expect(outputs).toEqual(Array.from({ length: 120 }, (_, index) => `spawn-${index}`));
    } finally {
      helper.close();
    }
  });

  it('reports a program that cannot start as an error event', async () => {
    const helper = await GitSpawnHelper.start();
    try {
      const child = helper.spawn('/nonexistent/git', [], {});
      const error = await new Promise<Error>((resolve) => child.on('error', resolve));
      expect(error).toMatchObject({ code: 'ENOENT' });
    } finally {
      helper.close();
    }
  });
});

describe('the spawn helper’s boundaries', () => {
  it('drops a connection that does not carry its secret, and keeps serving', async () => {
    const helper = await GitSpawnHelper.start();
    try {
      const socketPath = (helper as unknown as { options: { socketPath: string } }).options.socketPath;
      const stranger = connect(socketPath);
      stranger.write(`${'0'.repeat(32)}${'1'.padStart(16, '0')}1`);
      await new Promise<void>((resolve) => stranger.on('close', () => resolve()));
      const child = helper.spawn('git', ['--version'], { PATH: process.env['PATH'] });
      expect((await exitOf(child)).out).toMatch(/^git version /);
    } finally {
      helper.close();
    }
  });

  it('fails what is in flight when the helper dies, starts git directly, then through a new helper', async () => {
    const log: string[] = [];
    const release = await runtime.processes.useSpawnHelper((line) => log.push(line));
    try {
      const waiting = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch']);
      await waitUntil(() => waiting.pid !== undefined);
      const helperPid = parentOf(waiting.pid as number);
      const ended = exitOf(waiting);
      process.kill(helperPid, 'SIGKILL');
      expect(await ended).toMatchObject({ code: null, signal: 'SIGKILL' });
      expect(log).toEqual([
        expect.stringMatching(/^the git spawn helper ended \(exit SIGKILL\); git processes start from the server itself until a new helper runs/),
      ]);
      const direct = runtime.processes.spawn(spec.fixture.gitDir, ['--version']);
      expect(parentOf(direct.pid as number)).toBe(process.pid);
      expect((await exitOf(direct)).code).toBe(0);
      await waitUntil(() => log.length === 2);
      expect(log[1]).toMatch(/^a new git spawn helper runs \(pid \d+\)$/);
      const replaced = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch']);
      await waitUntil(() => replaced.pid !== undefined);
      const newHelperPid = parentOf(replaced.pid as number);
      expect([process.pid, helperPid]).not.toContain(newHelperPid);
      replaced.stdin.end(`${spec.fixture.blobs.readme}\n`);
      expect(await exitOf(replaced)).toMatchObject({ code: 0, out: expect.stringContaining(`${spec.fixture.blobs.readme} blob 6`) });
    } finally {
      release();
    }
  });

  it('keeps its secret off its command line, which names it', async () => {
    const helper = await GitSpawnHelper.start();
    try {
      const secret = (helper as unknown as { options: { secret: string } }).options.secret;
      const commandLine = readFileSync(`/proc/${helper.pid as number}/cmdline`, 'utf8');
      expect(commandLine).not.toContain(secret);
      expect(commandLine).toContain('forge-httpd git spawn helper');
    } finally {
      helper.close();
    }
  });

  it('removes its socket folder itself when the server goes away without closing it', async () => {
    const helper = await GitSpawnHelper.start();
    const inside = helper as unknown as { options: { folder: string }; helperProcess: { disconnect(): void; removeAllListeners(event: string): void } };
    expect(existsSync(inside.options.folder)).toBe(true);
    // What a killed server looks like to the helper: its IPC channel closes, and the server
    // never hears of the helper's end (so only the helper can remove the folder).
    inside.helperProcess.removeAllListeners('exit');
    inside.helperProcess.disconnect();
    await waitUntil(() => !existsSync(inside.options.folder));
    helper.close();
  });

  it('ends with its last user, and its processes with it', async () => {
    const release = await runtime.processes.useSpawnHelper();
    const child = runtime.processes.spawn(spec.fixture.gitDir, ['cat-file', '--batch']);
    await waitUntil(() => child.pid !== undefined);
    const helperPid = parentOf(child.pid as number);
    const ended = exitOf(child);
    release();
    await ended;
    await waitUntil(() => !isAlive(helperPid) && !isAlive(child.pid as number));
  });
});

function isAlive(pid: number): boolean {
  try {
    // A zombie (exited, not yet reaped) counts as gone.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

describe('the git binary', () => {
  const path = process.env['PATH'];
  afterEach(() => {
    process.env['PATH'] = path;
  });

  it('is the first git on PATH, as an absolute path, found again when PATH changes', async () => {
    const binary = runtime.processes.spawner.gitBinary();
    expect(binary).toMatch(/^\/.*\/git$/);
    const { stdout } = await runGit({ processes: runtime.processes, gitDir: spec.fixture.gitDir, args: ['--version'] });
    expect(stdout.toString()).toMatch(/^git version /);
    process.env['PATH'] = '/nonexistent:relative/bin';
    expect(runtime.processes.spawner.gitBinary()).toBe('git');
    process.env['PATH'] = `${spec.dir}:${path ?? ''}`;
    expect(runtime.processes.spawner.gitBinary()).toBe(binary);
  });
});
