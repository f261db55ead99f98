import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, gitRaw, makeTempDir, noiseBytes, removeTempDir } from '../write/git-cli.testing.js';
import { initBareRepository } from '../write/init-bare-repository.js';
import { LiveProcessLimit } from '../limits/live-process-limit.js';
import { ObjectFiles } from './object-files.js';
import type { Oid } from './oid.js';
import { serializeCommit } from '../format/serialize-commit.js';
import { serializeTree } from '../format/serialize-tree.js';
import { updateRefs } from '../write/update-refs.js';
import { writeObject } from '../write/write-object.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

/** Every object of a repository as git reads it: `cat-file --batch-all-objects --batch`. */
function allObjects(gitDir: string): Map<Oid, { type: string; data: Buffer }> {
  const out = gitRaw(gitDir, ['cat-file', '--batch-all-objects', '--batch']);
  const objects = new Map<Oid, { type: string; data: Buffer }>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(10, at);
    const [oid, type, size] = out.toString('latin1', at, eol).split(' ') as [Oid, string, string];
    const start = eol + 1;
    objects.set(oid, { type, data: out.subarray(start, start + Number(size)) });
    at = start + Number(size) + 1;
  }
  return objects;
}

/**
 * One commit of the spec's histories: a root tree of a folder `dir` (of `folder`'s entries) and
 * `text.txt`, on `parent`.
 */
async function writeFolderCommit(
  gitDir: string,
  commit: { folder: Parameters<typeof serializeTree>[0]; text: Oid; parent: Oid | undefined; n: number },
): Promise<Oid> {
  const person = { name: 'Alice', email: 'alice@example.com', time: 1000 + commit.n, offset: '+0000' };
  const dir = await writeObject(gitDir, 'tree', serializeTree(commit.folder));
  const tree = await writeObject(
    gitDir,
    'tree',
    serializeTree([
      { name: 'dir', mode: '40000', oid: dir },
      { name: 'text.txt', mode: '100644', oid: commit.text },
    ]),
  );
  const parents = commit.parent === undefined ? [] : [commit.parent];
  return writeObject(gitDir, 'commit', serializeCommit({ tree, parents, author: person, committer: person, message: `commit ${commit.n}\n` }));
}

/**
 * A history whose files change a little per commit, so repacking makes long delta chains:
 * 120 commits over two text files and a directory.
 */
async function writeHistory(gitDir: string): Promise<Oid> {
  await initBareRepository(gitDir, { userName: 'alice', userEmail: 'alice@example.com' });
  let parent: Oid | undefined;
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i} of a file that changes a little in every commit`);
  for (let n = 0; n < 120; n += 1) {
    lines[(n * 37) % lines.length] = `changed in commit ${n}`;
    const text = await writeObject(gitDir, 'blob', Buffer.from(lines.join('\n')));
    const other = await writeObject(
      gitDir,
      'blob',
      Buffer.from(
        lines
          .slice(0, 50 + n)
          .reverse()
          .join('\n'),
      ),
    );
    // One incompressible blob larger than an entry's first read (4 KiB): its data takes a second read.
    const noise = n === 119 ? await writeObject(gitDir, 'blob', noiseBytes(300 * 1024)) : other;
    const folder = [
      { name: 'noise.bin', mode: '100644' as const, oid: noise },
      { name: 'other.txt', mode: '100644' as const, oid: other },
    ];
    parent = await writeFolderCommit(gitDir, { folder, text, parent, n });
  }
  await updateRefs(gitDir, [{ name: 'refs/heads/master', oid: parent as Oid }]);
  return parent as Oid;
}

function packFiles(gitDir: string, suffix: string): string[] {
  return readdirSync(path.join(gitDir, 'objects', 'pack'))
    .filter((name) => name.endsWith(suffix))
    .map((name) => path.join(gitDir, 'objects', 'pack', name));
}

let tmp: string;
let loose: string;
const opened: ObjectFiles[] = [];

function open(gitDir: string, options: Partial<ConstructorParameters<typeof ObjectFiles>[1]> = {}): ObjectFiles {
  const files = new ObjectFiles(gitDir, { reads: runtime.objects, limit: new LiveProcessLimit(8), maxRebuiltDeltas: 1000, ...options });
  opened.push(files);
  return files;
}

/** A copy of the loose history, repacked with `args`. */
function repacked(name: string, args: readonly string[]): string {
  const gitDir = path.join(tmp, name);
  cpSync(loose, gitDir, { recursive: true });
  git(gitDir, args);
  git(gitDir, ['prune-packed']);
  return gitDir;
}

beforeAll(async () => {
  tmp = await makeTempDir();
  loose = path.join(tmp, 'loose.git');
  await writeHistory(loose);
});
afterAll(async () => {
  for (const files of opened) files.close();
  await removeTempDir(tmp);
});

describe('ObjectFiles', () => {
  it('reads every object of a pack with offset deltas exactly as git does', () => {
    const gitDir = repacked('ofs.git', ['repack', '-a', '-d', '-f', '--depth=50', '--window=50']);
    const deltas = git(gitDir, ['verify-pack', '-v', packFiles(gitDir, '.idx')[0] as string])
      .split('\n')
      .filter((line) => /^[0-9a-f]{40} +\w+ +\d+ +\d+ +\d+ +\d+ +[0-9a-f]{40}$/.test(line));
    expect(deltas.length).toBeGreaterThan(100);
    const files = open(gitDir);
    const expected = allObjects(gitDir);
    expect(expected.size).toBeGreaterThan(480);
    expect(readFileSync(packFiles(gitDir, '.pack')[0] as string).length).toBeGreaterThan(300 * 1024);
    for (const [oid, object] of expected) {
      const read = files.read(oid);
      expect(read?.type).toBe(object.type);
      expect(read?.data.equals(object.data)).toBe(true);
    }
    // Type and size from the entry headers alone, through a fresh reader (no cached bases).
    const headers = open(gitDir);
    for (const [oid, object] of expected) expect(headers.readInfo(oid)).toEqual({ type: object.type, size: object.data.length });
  });

  it('gives each object read from a pack bytes of its own, never a view of a bigger inflate chunk', () => {
    // Without deltas every object is inflated straight from its entry.
    const gitDir = repacked('whole.git', ['repack', '-a', '-d', '-f', '--window=0']);
    const files = open(gitDir);
    const expected = [...allObjects(gitDir)];
    const medium = expected.filter(([, object]) => object.data.length > 4096 && object.data.length < 16_384);
    const small = expected.filter(([, object]) => object.type === 'commit');
    expect(medium.length).toBeGreaterThan(10);
    for (const [oid, object] of medium) {
      const read = files.read(oid);
      expect(read?.data.equals(object.data)).toBe(true);
      // Its own buffer: the object and the one byte zlib needs to see the stream end.
      expect(read?.data.buffer.byteLength).toBe(object.data.length + 1);
    }
    for (const [oid] of small) {
      // Small ones are views of Node's shared pool slab (8 KiB on Node 20 and 22, 64 KiB on 24),
      // never of a zlib chunk (16 KiB by default).
      expect(files.read(oid)?.data.buffer.byteLength).toBeLessThanOrEqual(Buffer.poolSize);
    }
  });

  it('reads reference deltas (packs written without --delta-base-offset)', () => {
    const gitDir = path.join(tmp, 'ref.git');
    cpSync(loose, gitDir, { recursive: true });
    const list = gitRaw(gitDir, ['rev-list', '--objects', '--all']);
    git(gitDir, ['pack-objects', '--window=50', '--depth=50', path.join(gitDir, 'objects', 'pack', 'pack')], { input: list });
    git(gitDir, ['prune-packed']);
    const pack = readFileSync(packFiles(gitDir, '.pack')[0] as string);
    // A REF_DELTA entry's header byte carries type 7 in bits 4-6.
    expect(pack.subarray(12).some((byte) => (byte & 0x70) === 0x70)).toBe(true);
    const files = open(gitDir);
    const expected = allObjects(gitDir);
    for (const [oid, object] of expected) expect(files.readInfo(oid)).toEqual({ type: object.type, size: object.data.length });
    for (const [oid, object] of expected) expect(files.read(oid)?.data.equals(object.data)).toBe(true);
  });

  it('reads across several packs and loose objects, and finds a pack written after the first read', async () => {
    const gitDir = repacked('several.git', ['repack', '-a', '-d']);
    const files = open(gitDir);
    const head = git(gitDir, ['rev-parse', 'refs/heads/master']) as Oid;
    expect(files.read(head)?.type).toBe('commit');
    const blob = await writeObject(gitDir, 'blob', Buffer.from('a loose object\n'));
    expect(files.read(blob)?.data.toString()).toBe('a loose object\n');
    const packed = await writeObject(gitDir, 'blob', Buffer.from('packed after the first read\n'));
    git(gitDir, ['pack-objects', path.join(gitDir, 'objects', 'pack', 'pack')], { input: `${packed}\n` });
    git(gitDir, ['prune-packed']);
    expect(packFiles(gitDir, '.pack')).toHaveLength(2);
    expect(files.read(packed)?.data.toString()).toBe('packed after the first read\n');
  });

  it('leaves missing objects, big objects and damaged packs to git', () => {
    const gitDir = repacked('limits.git', ['repack', '-a', '-d', '-f', '--depth=50']);
    const head = git(gitDir, ['rev-parse', 'refs/heads/master:text.txt']) as Oid;
    expect(open(gitDir).read('0123456789012345678901234567890123456789' as Oid)).toBeUndefined();
    expect(open(gitDir, { maxObjectBytes: 100 }).read(head)).toBeUndefined();
    // A header costs nothing to read, whatever the object's size.
    expect(open(gitDir, { maxObjectBytes: 100 }).readInfo(head)?.size).toBeGreaterThan(100);
    expect(open(gitDir).read(head)?.data.length).toBeGreaterThan(100);

    const pack = packFiles(gitDir, '.pack')[0] as string;
    const bytes = readFileSync(pack);
    // Damage every entry's data (after the 12-byte header, before the 20-byte trailer).
    for (let i = 40; i < bytes.length - 20; i += 7) bytes[i] = (bytes[i] as number) ^ 0x5a;
    writeFileSync(pack, bytes);
    const damaged = open(gitDir);
    for (const oid of allObjectsIds(loose)) expect(() => damaged.read(oid)).not.toThrow();
    expect(damaged.read(head)).toBeUndefined();
  });

  it('leaves objects at the end of long delta chains to git until their bases are at hand', () => {
    const gitDir = repacked('deep.git', ['repack', '-a', '-d', '-f', '--depth=50', '--window=50']);
    const chains = git(gitDir, ['verify-pack', '-v', packFiles(gitDir, '.idx')[0] as string])
      .split('\n')
      .map((line) => /^([0-9a-f]{40}) +\w+ +\d+ +\d+ +\d+ +(\d+) +[0-9a-f]{40}$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ oid: match[1] as Oid, depth: Number(match[2]) }));
    const deep = chains.find((chain) => chain.depth > 20);
    if (deep === undefined) throw new Error('no long chain in the pack');
    // Bigger than the bound of deep blobs rebuilt here (the chain's file is ~22 KB).
    const files = open(gitDir, { maxRebuiltDeltas: 10, maxDeepBlobBytes: 1024 });
    expect(files.read(deep.oid)).toBeUndefined();
    // A type and size need no rebuilding.
    expect(files.readInfo(deep.oid)?.type).toBe('blob');
    // Shallower objects of the chain leave their bases in the cache, and the chain gets short.
    for (const chain of chains.filter((each) => each.depth <= 10)) expect(files.read(chain.oid)).toBeDefined();
    const reachable = chains.filter((chain) => files.read(chain.oid) !== undefined).length;
    expect(reachable).toBeGreaterThan(chains.filter((chain) => chain.depth <= 10).length);
  });

  it('rebuilds small blobs down as many deltas as trees, and leaves bigger deep ones to git', () => {
    const gitDir = repacked('deep-blobs.git', ['repack', '-a', '-d', '-f', '--depth=50', '--window=50']);
    const objects = allObjects(gitDir);
    const blobs = git(gitDir, ['verify-pack', '-v', packFiles(gitDir, '.idx')[0] as string])
      .split('\n')
      .map((line) => /^([0-9a-f]{40}) +blob +(\d+) +\d+ +\d+ +(\d+) +[0-9a-f]{40}$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ oid: match[1] as Oid, depth: Number(match[3]) }))
      .sort((a, b) => b.depth - a.depth);
    const deep = blobs.filter((blob) => blob.depth > 10 && blob.depth <= 50);
    if (deep.length === 0) throw new Error('no blob chain deeper than 10 in the pack');
    // Deepest first in each reader, so no read finds its bases cached by a shallower one's.
    const sizes = deep.map((blob) => (objects.get(blob.oid)?.data as Buffer).length);
    const small = open(gitDir, { maxRebuiltDeltas: 10 });
    for (const blob of deep) expect(small.read(blob.oid)?.data.equals(objects.get(blob.oid)?.data as Buffer)).toBe(true);
    const copy = repacked('deep-blobs-bounded.git', ['repack', '-a', '-d', '-f', '--depth=50', '--window=50']);
    const bound = Math.min(...sizes) - 1;
    const bounded = open(copy, { maxRebuiltDeltas: 10, maxDeepBlobBytes: bound });
    const deepest = deep[0] as { oid: Oid };
    expect(bounded.read(deepest.oid)).toBeUndefined();
    // The bound is on the blob asked for: its type and size are still read from the headers.
    expect(bounded.readInfo(deepest.oid)).toEqual({ type: 'blob', size: objects.get(deepest.oid)?.data.length });
    expect(open(copy, { maxRebuiltDeltas: 10, maxDeepBlobBytes: 0 }).read(deepest.oid)).toBeUndefined();
  });

  it('rebuilds trees down longer delta chains than blobs, and leaves both past their bounds to git', async () => {
    // 80 commits of a 60-file folder where one file changes per commit: its trees pack into long chains.
    const source = path.join(tmp, 'trees-source.git');
    await initBareRepository(source, { userName: 'alice', userEmail: 'alice@example.com' });
    const files = await Promise.all(Array.from({ length: 60 }, (_, i) => writeObject(source, 'blob', Buffer.from(`file ${i}\n`))));
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} of a file that changes a little in every commit`);
    let parent: Oid | undefined;
    for (let n = 0; n < 80; n += 1) {
      files[(n * 7) % files.length] = await writeObject(source, 'blob', Buffer.from(`file changed in commit ${n}\n`));
      lines[(n * 37) % lines.length] = `changed in commit ${n}`;
      const text = await writeObject(source, 'blob', Buffer.from(lines.join('\n')));
      const folder = files.map((oid, i) => ({ name: `f${String(i).padStart(3, '0')}.txt`, mode: '100644' as const, oid }));
      parent = await writeFolderCommit(source, { folder, text, parent, n });
    }
    await updateRefs(source, [{ name: 'refs/heads/master', oid: parent as Oid }]);
    const copy = (name: string): string => {
      const gitDir = path.join(tmp, name);
      cpSync(source, gitDir, { recursive: true });
      git(gitDir, ['repack', '-a', '-d', '-f', '--depth=50', '--window=50']);
      git(gitDir, ['prune-packed']);
      return gitDir;
    };
    // Deepest first, so no read finds its bases cached by a shallower one's (each copy has a pack of its own, so cache keys of its own).
    const chainsOf = (gitDir: string): { oid: Oid; type: string; depth: number }[] =>
      git(gitDir, ['verify-pack', '-v', packFiles(gitDir, '.idx')[0] as string])
        .split('\n')
        .map((line) => /^([0-9a-f]{40}) +(\w+) +\d+ +\d+ +\d+ +(\d+) +[0-9a-f]{40}$/.exec(line))
        .filter((match) => match !== null)
        .map((match) => ({ oid: match[1] as Oid, type: match[2] as string, depth: Number(match[3]) }))
        .sort((a, b) => b.depth - a.depth);
    const bounded = copy('deep-trees.git');
    const objects = allObjects(bounded);
    const chains = chainsOf(bounded);
    const deepTrees = chains.filter((chain) => chain.type === 'tree' && chain.depth > 10 && chain.depth <= 50);
    const deepBlob = chains.find((chain) => chain.type === 'blob' && chain.depth > 10);
    if (deepTrees.length === 0 || deepBlob === undefined) throw new Error('no long tree and blob chains in the pack');
    const defaults = open(bounded, { maxRebuiltDeltas: 10, maxDeepBlobBytes: 1024 });
    expect(defaults.read(deepBlob.oid)).toBeUndefined();
    for (const chain of deepTrees) expect(defaults.read(chain.oid)?.data.equals(objects.get(chain.oid)?.data as Buffer)).toBe(true);

    const narrow = copy('deep-trees-narrow.git');
    const narrowTree = chainsOf(narrow).find((chain) => chain.type === 'tree' && chain.depth > 10);
    expect(narrowTree).toBeDefined();
    expect(open(narrow, { maxRebuiltDeltas: 10, maxRebuiltSmallDeltas: 10 }).read((narrowTree as { oid: Oid }).oid)).toBeUndefined();
  });

  it('leaves a repository with a cut index to git', () => {
    const gitDir = repacked('cut.git', ['repack', '-a', '-d']);
    const idx = packFiles(gitDir, '.idx')[0] as string;
    writeFileSync(idx, readFileSync(idx).subarray(0, 600));
    const head = git(gitDir, ['rev-parse', 'refs/heads/master']) as Oid;
    expect(open(gitDir).read(head)).toBeUndefined();
  });

  it('closes its packs when the process-wide limit needs room, and reopens them on the next read', () => {
    const limit = new LiveProcessLimit(1);
    const a = open(repacked('a.git', ['repack', '-a', '-d']), { limit });
    const b = open(repacked('b.git', ['repack', '-a', '-d']), { limit });
    const head = git(loose, ['rev-parse', 'refs/heads/master']) as Oid;
    expect(a.read(head)?.type).toBe('commit');
    expect(limit.size).toBe(1);
    expect(b.read(head)?.type).toBe('commit');
    expect(limit.size).toBe(1);
    expect(a.read(head)?.type).toBe('commit');
    expect(limit.size).toBe(1);
  });
});

function allObjectsIds(gitDir: string): Oid[] {
  return git(gitDir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).split('\n') as Oid[];
}
