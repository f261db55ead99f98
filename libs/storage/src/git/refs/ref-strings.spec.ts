import { writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { forEachLine } from '../objects/buffer-lines.js';

import { gitRaw, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { PackedRefsFile } from '../objects/loose-files.js';
import { listRefs } from './refs.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

// Ref names and object ids outlive the listing they came from (evaluated issues keep their id
// and the refs they consulted). Each must be a string of its own: a substring of the decoded
// listing would keep the whole listing in memory for as long as it lives.

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const REFS = 4_000;
const LISTINGS = 10;
/** ~190 bytes a line: ~760 KB a listing, ~7.6 MB if every listing stayed alive. */
const refName = (index: number): string => `refs/namespaces/z6Mk${'a'.repeat(60)}/refs/cobs/xyz.forge.issue/${index.toString(16).padStart(40, '0')}`;

/** A `packed-refs` of `count` refs, all pointing at the one object. */
function writePackedRefs(count: number): void {
  const lines = Array.from({ length: count }, (_, index) => `${oid} ${refName(index)}`);
  writeFileSync(path.join(gitDir, 'packed-refs'), `# pack-refs with: peeled fully-peeled sorted \n${lines.join('\n')}\n`);
}

let tmp: string;
let gitDir: string;
let oid: string;

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  oid = gitRaw(gitDir, ['hash-object', '-w', '--stdin'], { input: 'x' }).toString().trim();
  writePackedRefs(REFS);
});
afterAll(() => removeTempDir(tmp));

describe('strings from ref listings', () => {
  it('lists every line range of a buffer, a last line without newline included', () => {
    const ranges: Array<[number, number]> = [];
    forEachLine(Buffer.from('ab\n\ncde\nf'), (start, end) => ranges.push([start, end]));
    expect(ranges).toEqual([
      [0, 2],
      [3, 3],
      [4, 7],
      [8, 9],
    ]);
    const none: unknown[] = [];
    forEachLine(Buffer.alloc(0), (start, end) => none.push([start, end]));
    expect(none).toEqual([]);
  });

  it('keeps no for-each-ref listing alive through a name and an id taken from it', async () => {
    const first = await listRefs({ gitDir, processes: runtime.processes }, 'refs/namespaces/');
    expect(first.entries).toHaveLength(REFS);
    expect(first.entries[7]).toEqual({ name: refName(7), oid });
    const kept: string[] = [];
    const before = heapAfterCollection();
    for (let listing = 0; listing < LISTINGS; listing++) {
      const { entries } = await listRefs({ gitDir, processes: runtime.processes }, 'refs/namespaces/');
      const entry = entries[listing * 13];
      kept.push(entry?.name ?? '', entry?.oid ?? '');
    }
    const growth = heapAfterCollection() - before;
    expect(kept).toHaveLength(2 * LISTINGS);
    // Every listing alive would be ~7.6 MB.
    expect(growth).toBeLessThan(2 * 1024 * 1024);
  });

  it('keeps no version of packed-refs alive through an id resolved from it', () => {
    const kept: Array<string | null | undefined> = [];
    const refs = new PackedRefsFile(gitDir);
    // The file's current version is held (a map of every ref): measured from when one is.
    expect(refs.resolve(refName(1))).toBe(oid);
    const before = heapAfterCollection();
    for (let version = 0; version < LISTINGS; version++) {
      // A new version of the file (another size), read again on the next resolve.
      writePackedRefs(REFS + 1 + version);
      kept.push(refs.resolve(refName(version * 13)));
    }
    const growth = heapAfterCollection() - before;
    expect(kept).toEqual(Array.from({ length: LISTINGS }, () => oid));
    expect(growth).toBeLessThan(2 * 1024 * 1024);
  });
});
