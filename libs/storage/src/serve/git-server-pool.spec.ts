import { BusyError, ProcessFailedError } from '@forge-httpd/identity';
import { PassThrough, type Readable } from 'node:stream';
import { GitServerPool } from './git-server-pool.js';
import { waitUntil } from '../wait-until.testing.js';
import { git, makeTempBareRepository, noiseBytes, removeTempDir } from '../git/write/git-cli.testing.js';
import { gitArguments } from '../git/processes/git-command.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

/** `git hash-object --stdin` reads stdin to its end: with an open stdin it runs until stopped. */
const WAITING = { args: ['hash-object', '--stdin'], failOnExit: false };

function outcome(stream: Readable): Promise<{ data: string; error: unknown }> {
  return new Promise((resolve) => {
    let data = '';
    stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
    stream.on('end', () => resolve({ data, error: null }));
    stream.on('error', (error) => resolve({ data, error }));
  });
}

describe('GitServerPool', () => {
  it('streams a process output and frees its slot when it exits', async () => {
    const pool = new GitServerPool({ processes: runtime.processes, maxProcesses: 1, timeoutMs: 10_000 });
    const stdin = new PassThrough();
    const output = pool.start({ ...WAITING, stdin });
    stdin.end('hello\n');
    expect((await outcome(output)).data.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    await waitUntil(() => pool.running === 0);
  });

  it('refuses a process past the cap instead of queueing it', async () => {
    const pool = new GitServerPool({ processes: runtime.processes, maxProcesses: 1, timeoutMs: 10_000 });
    const stdin = new PassThrough();
    const output = pool.start({ ...WAITING, stdin });
    expect(() => pool.start({ ...WAITING, stdin: new PassThrough() })).toThrow(BusyError);
    stdin.end();
    await outcome(output);
    await waitUntil(() => pool.running === 0);
    pool.start({ ...WAITING, stdin: new PassThrough().end() });
  });

  it('kills a process past its time limit and makes its stream fail', async () => {
    const pool = new GitServerPool({ processes: runtime.processes, maxProcesses: 2, timeoutMs: 200 });
    const result = await outcome(pool.start({ ...WAITING, stdin: new PassThrough() }));
    expect(result.error).toBeInstanceOf(ProcessFailedError);
    await waitUntil(() => pool.running === 0);
  });

  it('kills the process when its output stream is destroyed (the client hung up)', async () => {
    const pool = new GitServerPool({ processes: runtime.processes, maxProcesses: 2, timeoutMs: 10_000 });
    const output = pool.start({ ...WAITING, stdin: new PassThrough() });
    expect(pool.running).toBe(1);
    output.destroy();
    await waitUntil(() => pool.running === 0);
  });

  it.each([
    ['started directly', async () => () => undefined],
    ['started by the spawn helper', () => runtime.processes.useSpawnHelper()],
  ])('frees the slot of a process whose unread output is left behind when its stream is destroyed (%s)', async (_how, use) => {
    const release = await use();
    // Far more output than the pipes hold: git is blocked writing when the reader goes away.
    const { tmp, gitDir } = await makeTempBareRepository();
    try {
      const blob = git(gitDir, ['hash-object', '-w', '--stdin'], { input: noiseBytes(4 * 1024 * 1024) });
      const pool = new GitServerPool({ processes: runtime.processes, maxProcesses: 1, timeoutMs: 10_000 });
      const stdin = new PassThrough();
      const output = pool.start({ args: gitArguments(gitDir, ['cat-file', '--batch']), stdin, failOnExit: false });
      stdin.write(`${blob}\n`.repeat(8));
      await new Promise((resolve) => output.once('data', resolve));
      output.destroy();
      await waitUntil(() => pool.running === 0);
      expect((await outcome(pool.start({ ...WAITING, stdin: new PassThrough().end('x') }))).error).toBeNull();
    } finally {
      release();
      await removeTempDir(tmp);
    }
  });

  it('fails the stream on a non-zero exit only when asked to', async () => {
    const pool = new GitServerPool({ processes: runtime.processes, maxProcesses: 2, timeoutMs: 10_000 });
    const failing = { args: ['--git-dir=/nonexistent', 'archive', 'HEAD'] };
    expect((await outcome(pool.start({ ...failing, failOnExit: true }))).error).toBeInstanceOf(ProcessFailedError);
    expect((await outcome(pool.start({ ...failing, failOnExit: false }))).error).toBeNull();
  });
});
