/**
 * Test helper: a seeded random history written with `git fast-import`, built to hit every
 * case of rev-list's order and history simplification: equal committer times, clock skew,
 * octopus merges, merges taking a later parent's version (TREESAME to it), merges changing a
 * file against every parent, renames, deletions, a path that turns from a file into a folder
 * and back.
 */
import path from 'node:path';
import { gitRaw } from '../write/git-cli.testing.js';
import { initBareRepository } from '../write/init-bare-repository.js';
import type { Oid } from '../objects/oid.js';

const PATHS = ['a', 'b', 'c.txt', 'd/x', 'd/y', 'd/e/z', 'f', 'f/g', 'f/h/i', 'é/ü'];

type Files = Map<string, string>;

interface Made {
  readonly mark: number;
  readonly time: number;
  readonly files: Files;
}

/** A small deterministic PRNG (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sets `file`, dropping whatever stands in its way (a file where a folder must be, or the folder's files). */
function put(files: Files, file: string, content: string): void {
  for (const existing of [...files.keys()]) {
    if (existing.startsWith(`${file}/`) || file.startsWith(`${existing}/`)) files.delete(existing);
  }
  files.set(file, content);
}

/** fast-import commands turning the first parent's files into `files`. */
function changes(from: Files | null, files: Files): string {
  const lines: string[] = [];
  for (const file of from?.keys() ?? []) if (!files.has(file)) lines.push(`D ${file}`);
  for (const [file, content] of files) {
    if (from?.get(file) === content) continue;
    const bytes = Buffer.byteLength(content);
    lines.push(`M 100644 inline ${file}`, `data ${bytes}`, content);
  }
  return lines.join('\n');
}

/**
 * Writes the history into a new bare repository under `dir`.
 * @returns the git directory and every commit id (oldest first)
 */
export async function buildTrickyHistory(dir: string, options: { seed: number; commits: number }): Promise<{ gitDir: string; commits: Oid[] }> {
  const gitDir = path.join(dir, `tricky-${options.seed}.git`);
  await initBareRepository(gitDir, { userName: 'alice', userEmail: 'alice@example.com' });
  const next = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const made: Made[] = [];
  let heads: Made[] = [];
  const script: string[] = [];
  const write = (parents: readonly Made[], files: Files): Made => {
    const first = parents[0];
    const base = first?.time ?? 1_000_000;
    // Mostly equal or close times, sometimes a commit older than its parent.
    const time = next() < 0.15 ? base - 50 : base + pick([0, 0, 1, 2, 30]);
    const mark = made.length + 1;
    script.push(`commit refs/heads/b${mark}`, `mark :${mark}`, `committer A <a@example.com> ${time} +0000`, 'data 0');
    if (first !== undefined) script.push(`from :${first.mark}`);
    for (const other of parents.slice(1)) script.push(`merge :${other.mark}`);
    const edits = changes(first?.files ?? null, files);
    if (edits !== '') script.push(edits);
    const commit = { mark, time, files };
    made.push(commit);
    return commit;
  };
  heads.push(
    write(
      [],
      new Map([
        ['a', 'a0'],
        ['d/x', 'x0'],
        ['f', 'f0'],
      ]),
    ),
  );
  while (made.length < options.commits) {
    const roll = next();
    if (roll < 0.2 && heads.length >= 2) {
      const count = heads.length >= 3 && next() < 0.3 ? 3 : 2;
      const parents = [...heads].sort(() => next() - 0.5).slice(0, count);
      const files = new Map(parents[0]?.files);
      for (const file of PATHS) {
        const versions = parents.map((parent) => parent.files.get(file));
        if (new Set(versions).size === 1 && next() > 0.1) continue;
        const chosen = next() < 0.15 ? `evil${made.length}` : pick(versions);
        if (chosen === undefined) files.delete(file);
        else put(files, file, chosen);
      }
      heads = [...heads.filter((head) => !parents.includes(head)), write(parents, files)];
    } else {
      const parent = pick(heads);
      const files = new Map(parent.files);
      for (let edits = 1 + Math.floor(next() * 2); edits > 0; edits -= 1) {
        const file = pick(PATHS);
        const kind = next();
        const current = files.get(file);
        if (kind < 0.15 && current !== undefined) files.delete(file);
        else if (kind < 0.3 && current !== undefined) {
          files.delete(file);
          put(files, pick(PATHS), current);
        } else put(files, file, `${file}${made.length}`);
      }
      const child = write([parent], files);
      heads = roll < 0.3 || heads.length === 1 ? [...heads, child] : heads.map((head) => (head === parent ? child : head));
    }
  }
  gitRaw(gitDir, ['fast-import', '--quiet', '--date-format=raw'], { input: `${script.join('\n')}\n` });
  const commits = made.map(
    (commit) =>
      gitRaw(gitDir, ['rev-parse', `refs/heads/b${commit.mark}`])
        .toString()
        .trim() as Oid,
  );
  return { gitDir, commits };
}

/** Every path the history ever had, and the folders above them. */
export const TRICKY_PATHS: readonly string[] = [...new Set(PATHS.flatMap((file) => file.split('/').map((_, at, parts) => parts.slice(0, at + 1).join('/'))))];
