import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { generateHistory, type HistoryOutline, type HistorySpec } from './history-generator.js';
import type { StreamSink } from './history-stream.js';
import { runChecked } from './processes.js';

/** A sample commit of the big repository with everything resolved to oids. */
export interface GitSample {
  readonly commit: string;
  readonly base: string;
  readonly file: string;
  readonly dir: string;
}

/** A generated, packed bare git repository and the facts the workload needs about it. */
export interface GitFixture {
  readonly gitDir: string;
  readonly head: string;
  readonly samples: GitSample[];
  readonly commits: number;
  readonly merges: number;
  readonly renames: number;
  readonly files: number;
  readonly packBytes: number;
}

/**
 * Generates a bare repository with `git fast-import` fed from Node, then packs it like a
 * long-lived server repository (`repack -adf`, commit-graph, packed refs).
 */
export async function buildGitFixture(gitDir: string, spec: HistorySpec): Promise<GitFixture> {
  await rm(gitDir, { recursive: true, force: true });
  await mkdir(path.dirname(gitDir), { recursive: true });
  await runChecked('git', ['init', '--quiet', '--bare', '--initial-branch=master', gitDir]);
  const marksFile = path.join(gitDir, 'bench-marks');
  const outline = await importHistory(gitDir, marksFile, spec);
  const git = (...args: string[]): Promise<Buffer> => runChecked('git', ['-C', gitDir, ...args]);
  await git('-c', 'pack.threads=2', 'repack', '-adf', '-q');
  await git('commit-graph', 'write', '--reachable');
  await git('pack-refs', '--all');
  const marks = await readMarks(marksFile);
  const oid = (mark: number): string => {
    const value = marks.get(mark);
    if (value === undefined) throw new Error(`fast-import did not export mark :${mark}`);
    return value;
  };
  const packBytes = Number((await git('count-objects', '-v')).toString().match(/size-pack: (\d+)/)?.[1] ?? 0) * 1024;
  return {
    gitDir,
    head: oid(outline.headMark),
    samples: outline.samples.map((s) => ({ commit: oid(s.mark), base: oid(s.baseMark), file: s.file, dir: s.dir })),
    commits: outline.commits,
    merges: outline.merges,
    renames: outline.renames,
    files: outline.files,
    packBytes,
  };
}

async function importHistory(gitDir: string, marksFile: string, spec: HistorySpec): Promise<HistoryOutline> {
  const child = spawn('git', ['-C', gitDir, 'fast-import', '--quiet', `--export-marks=${marksFile}`], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = once(child, 'close');
  const sink = batchingSink(child.stdin);
  const outline = await generateHistory(spec, sink);
  await sink.flush();
  child.stdin.end();
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`git fast-import exited ${code}: ${stderr}`);
  return outline;
}

/** Groups small writes into ~256 KiB chunks and honours the pipe's backpressure. */
function batchingSink(stream: NodeJS.WritableStream): StreamSink & { flush(): Promise<void> } {
  let parts: Buffer[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    if (size === 0) return;
    const chunk = Buffer.concat(parts);
    parts = [];
    size = 0;
    if (!stream.write(chunk)) await once(stream, 'drain');
  };
  return {
    async write(chunk) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      parts.push(bytes);
      size += bytes.length;
      if (size >= 262_144) await flush();
    },
    flush,
  };
}

async function readMarks(marksFile: string): Promise<Map<number, string>> {
  const marks = new Map<number, string>();
  for (const line of (await readFile(marksFile, 'utf8')).split('\n')) {
    const match = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) marks.set(Number(match[1]), match[2]);
  }
  return marks;
}
