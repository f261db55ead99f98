import { createHash } from 'node:crypto';
import { decodeCommitChanges, encodeCommitChanges } from './commit-changes-file.js';
import { CommitChanges, type CommitChangesEntry } from './commit-changes.js';
import type { Oid } from '../objects/oid.js';
import { runAtOnce, runInSlices } from '../limits/thread-slices.js';

const oid = (at: number): Oid => at.toString(16).padStart(40, '0') as Oid;

/** A made-up history with merges (every 10th commit merges the one 5 back) and a path of non-ASCII bytes; newest first. */
function history(count: number): CommitChangesEntry[] {
  const entries: CommitChangesEntry[] = [];
  for (let at = count; at >= 1; at -= 1) {
    const parents = at === 1 ? [] : at % 10 === 0 && at > 5 ? [oid(at - 1), oid(at - 5)] : [oid(at - 1)];
    const changes =
      parents.length === 0 ? [['README']] : parents.map((_, edge) => [`dir/file${(at + edge) % 7}`, ...(at % 50 === 0 ? ['d\u00e9j\u00e0/\u00ff'] : [])]);
    entries.push({ oid: oid(at), time: 1_600_000_000 + at, parents, changes });
  }
  return entries;
}

const PATHS = ['README', 'dir', 'dir/file0', 'dir/file3', 'dir/file6', 'd\u00e9j\u00e0', 'd\u00e9j\u00e0/\u00ff', 'absent'];

async function held(count: number): Promise<CommitChanges> {
  const changes = new CommitChanges();
  expect(await changes.appendInSlices(history(count), { sliceMs: 4 })).toBe(true);
  return changes;
}

/** Every answer for every path from every commit. */
function answers(changes: CommitChanges, count: number): (Oid | null | undefined)[] {
  const out: (Oid | null | undefined)[] = [];
  for (let at = 1; at <= count; at += 1) for (const path of PATHS) out.push(changes.lastCommitTouching(oid(at), path));
  return out;
}

/** The bytes with the trailing checksum made right again after an edit. */
function resealed(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  createHash('sha1')
    .update(copy.subarray(0, copy.length - 20))
    .digest()
    .copy(copy, copy.length - 20);
  return copy;
}

describe('commit-changes-file', () => {
  it('writes a CommitChanges that reads back whole: the same bytes again, the same tips, every answer the same', async () => {
    const original = await held(500);
    const bytes = runAtOnce(encodeCommitChanges(original.snapshot(), [oid(500), oid(250)]));
    const stored = runAtOnce(decodeCommitChanges(bytes));
    expect(stored?.commits).toBe(500);
    expect(stored?.tips).toEqual([oid(500), oid(250)]);
    const restored = await CommitChanges.restoreInSlices(stored!, { sliceMs: 0 });
    expect(restored?.commits).toBe(500);
    expect(restored?.size).toBe(original.size);
    expect(answers(restored!, 500)).toEqual(answers(original, 500));
    expect(answers(original, 500).filter((answer) => typeof answer === 'string').length).toBeGreaterThan(500);
    expect(runAtOnce(encodeCommitChanges(restored!.snapshot(), [oid(500), oid(250)])).equals(bytes)).toBe(true);
  });

  it('writes only the commits visible when it starts, in slices, while a batch is appended behind it', async () => {
    const changes = await held(300);
    const more = history(400).slice(0, 100);
    const writing = runInSlices(encodeCommitChanges(changes.snapshot(), [oid(300)]), { sliceMs: 0 });
    const appending = changes.appendInSlices(more, { sliceMs: 0 });
    const [written, appended] = await Promise.all([writing, appending]);
    expect(appended).toBe(true);
    const stored = runAtOnce(decodeCommitChanges(written!.value));
    expect(stored?.commits).toBe(300);
    expect(answers((await CommitChanges.restoreInSlices(stored!, { sliceMs: 4 }))!, 300)).toEqual(answers(await held(300), 300));
  });

  it('refuses a file with a flipped byte, a cut end, another magic, or parts out of range', async () => {
    const bytes = runAtOnce(encodeCommitChanges((await held(100)).snapshot(), [oid(100)]));
    const decode = (file: Buffer): unknown => runAtOnce(decodeCommitChanges(file));
    expect(decode(bytes)).not.toBeNull();
    const flipped = Buffer.from(bytes);
    flipped.writeUInt8((flipped.readUInt8(bytes.length >> 1) ^ 0x01) & 0xff, bytes.length >> 1);
    expect(decode(flipped)).toBeNull();
    expect(decode(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(decode(Buffer.alloc(0))).toBeNull();
    const magic = Buffer.from(bytes);
    magic[0] = 0x58;
    expect(decode(resealed(magic))).toBeNull();
    // Commit count one higher than the arrays: the sizes no longer add up.
    const counted = Buffer.from(bytes);
    counted.writeUInt32LE(101, 8);
    expect(decode(resealed(counted))).toBeNull();
    // The first edge's parent (after the header, ids, times and edge starts) pointing past the commits.
    const parentAt = 32 + 100 * (20 + 8) + 101 * 4;
    const parent = Buffer.from(bytes);
    parent.writeInt32LE(100, parentAt);
    expect(decode(resealed(parent))).toBeNull();
    parent.writeInt32LE(-2, parentAt);
    expect(decode(resealed(parent))).toBeNull();
  });

  it('restores nothing from a file naming one commit twice, or a tip it does not hold', async () => {
    const bytes = runAtOnce(encodeCommitChanges((await held(50)).snapshot(), [oid(50)]));
    const twice = Buffer.from(bytes);
    twice.copy(twice, 32 + 20, 32, 32 + 20);
    const storedTwice = runAtOnce(decodeCommitChanges(resealed(twice)));
    expect(storedTwice).not.toBeNull();
    expect(await CommitChanges.restoreInSlices(storedTwice!, { sliceMs: 4 })).toBeNull();
    const tip = Buffer.from(bytes);
    tip.write(oid(999), tip.length - 40, 20, 'hex');
    const storedTip = runAtOnce(decodeCommitChanges(resealed(tip)));
    expect(storedTip?.tips).toEqual([oid(999)]);
    expect(await CommitChanges.restoreInSlices(storedTip!, { sliceMs: 4 })).toBeNull();
  });
});
