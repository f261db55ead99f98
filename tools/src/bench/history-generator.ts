import path from 'node:path';
import { binaryBytes, commitMessage, editLines, newFileLines, newFilePath, readmeText } from './history-content.js';
import { BranchTree, type FileOp } from './history-tree.js';
import { authorAt, largeJsonLines, writeCommit, writeReset, type StreamSink } from './history-stream.js';
import { Prng } from './prng.js';

/** What history to generate. */
export interface HistorySpec {
  readonly commits: number;
  readonly files: number;
  readonly seed: number;
}

/** A master commit picked for the workload, with a file and directory that exist in it. */
export interface HistorySample {
  readonly mark: number;
  /** A master commit five first-parent steps earlier (for `/diff/{base}/{oid}`). */
  readonly baseMark: number;
  readonly file: string;
  readonly dir: string;
}

/** Summary of a generated history (marks are resolved to oids after the import). */
export interface HistoryOutline {
  readonly samples: HistorySample[];
  headMark: number;
  commits: number;
  merges: number;
  renames: number;
  files: number;
}

const START_TIME = 1_577_836_800; // 2020-01-01T00:00:00Z: fixed so ids are reproducible
const MASTER = 'refs/heads/master';
const FEATURE = 'refs/heads/wip';

interface Feature {
  tree: BranchTree;
  tip: number;
  remaining: number;
  readonly changed: Set<string>;
}

/**
 * Streams a deterministic history into `sink` as git fast-import commands: a master line with
 * feature branches merged back (both sides diverge, so merges are real), renames, deletions,
 * a growing file set, a binary file, a large file and tags.
 */
export async function generateHistory(spec: HistorySpec, sink: StreamSink): Promise<HistoryOutline> {
  const generator = new HistoryGenerator(spec, sink);
  return generator.run();
}

class HistoryGenerator {
  private readonly prng: Prng;
  private readonly master = new BranchTree();
  private readonly recent: number[] = [];
  private readonly outline: HistoryOutline = { samples: [], headMark: 0, commits: 0, merges: 0, renames: 0, files: 0 };
  private feature: Feature | null = null;
  private mark = 0;
  private time = START_TIME;

  constructor(
    private readonly spec: HistorySpec,
    private readonly sink: StreamSink,
  ) {
    this.prng = new Prng(spec.seed);
  }

  async run(): Promise<HistoryOutline> {
    await this.initialCommit();
    while (this.outline.commits < this.spec.commits) {
      const left = this.spec.commits - this.outline.commits;
      const feature = this.feature;
      if (feature !== null && (feature.remaining === 0 || left === 1)) await this.mergeCommit(feature);
      else if (feature !== null && this.prng.chance(0.6)) await this.featureCommit(feature);
      else {
        if (feature === null && left > 12 && this.prng.chance(1 / 25)) this.openFeature();
        await this.masterCommit();
      }
    }
    this.outline.files = this.master.files.size;
    return this.outline;
  }

  private async initialCommit(): Promise<void> {
    const ops: FileOp[] = [];
    const add = (file: string, content: Buffer | readonly string[], editable: boolean): void => {
      this.master.set(file, content, editable);
      ops.push({ kind: 'M', path: file, content });
    };
    add('README.md', readmeText(0).split('\n'), false);
    add('LICENSE', ['MIT License', '', 'Copyright (c) 2020 bench'], false);
    add('assets/logo.png', binaryBytes(this.prng, 16_384), false);
    add('data/large.json', largeJsonLines(Math.min(600_000, this.spec.files * 120)), false);
    const initial = Math.max(10, Math.round(this.spec.files * 0.1));
    for (let i = 0; i < initial; i++) {
      const file = newFilePath(this.prng, this.master.files);
      add(file, newFileLines(this.prng, file), true);
    }
    await this.commit(MASTER, [], ops, 'Initial import\n');
  }

  private async masterCommit(): Promise<void> {
    const ops: FileOp[] = [];
    this.addFiles(ops);
    const edits = this.prng.int(1, 3);
    for (let e = 0; e < edits; e++) this.editFile(this.master, ops);
    if (this.feature === null) this.renameOrDelete(ops);
    this.editSpecialFiles(ops);
    await this.commit(MASTER, [this.tip()], ops);
    this.afterMasterCommit();
  }

  private addFiles(ops: FileOp[]): void {
    const growth = Math.min(1, this.outline.commits / (0.7 * this.spec.commits));
    const target = Math.max(10, Math.round(this.spec.files * 0.1)) + 4 + (this.spec.files - Math.round(this.spec.files * 0.1)) * growth;
    for (let n = 0; n < 20 && this.master.files.size < target; n++) {
      const file = newFilePath(this.prng, this.master.files);
      const lines = newFileLines(this.prng, file);
      this.master.set(file, lines, true);
      ops.push({ kind: 'M', path: file, content: lines });
    }
  }

  private editFile(tree: BranchTree, ops: FileOp[]): string {
    const file = tree.pickEditable(this.prng);
    const lines = editLines(this.prng, tree.text(file));
    tree.set(file, lines, true);
    ops.push({ kind: 'M', path: file, content: lines });
    return file;
  }

  private renameOrDelete(ops: FileOp[]): void {
    if (this.master.editableCount < 20) return;
    const roll = this.prng.next();
    if (roll < 0.012) {
      const from = this.master.pickEditable(this.prng);
      if (ops.some((op) => op.kind === 'M' && op.path === from)) return;
      const to = newFilePath(this.prng, this.master.files);
      const lines = this.master.text(from);
      this.master.delete(from);
      this.master.set(to, lines, true);
      ops.push({ kind: 'R', from, to });
      this.outline.renames++;
      if (this.prng.chance(0.5)) this.editFile(this.master, ops);
    } else if (roll < 0.016) {
      const victim = this.master.pickEditable(this.prng);
      if (ops.some((op) => op.kind === 'M' && op.path === victim)) return;
      this.master.delete(victim);
      ops.push({ kind: 'D', path: victim });
    }
  }

  private editSpecialFiles(ops: FileOp[]): void {
    const count = this.outline.commits;
    if (count % 97 === 0) {
      const lines = readmeText(count).split('\n');
      this.master.set('README.md', lines, false);
      ops.push({ kind: 'M', path: 'README.md', content: lines });
    }
    if (count % Math.max(50, Math.floor(this.spec.commits / 10)) === 0) {
      const lines = editLines(this.prng, this.master.text('data/large.json'));
      this.master.set('data/large.json', lines, false);
      ops.push({ kind: 'M', path: 'data/large.json', content: lines });
    }
  }

  private openFeature(): void {
    this.feature = { tree: new BranchTree(this.master), tip: this.tip(), remaining: this.prng.int(2, 8), changed: new Set() };
  }

  private async featureCommit(feature: Feature): Promise<void> {
    const ops: FileOp[] = [];
    const edits = this.prng.int(1, 3);
    for (let e = 0; e < edits; e++) feature.changed.add(this.editFile(feature.tree, ops));
    await this.commit(FEATURE, [feature.tip], ops);
    feature.tip = this.mark;
    feature.remaining--;
  }

  private async mergeCommit(feature: Feature): Promise<void> {
    // Conflicts resolve to the feature side; renames/deletes on master pause while a feature is open.
    const ops: FileOp[] = [];
    for (const file of feature.changed) {
      const lines = feature.tree.text(file);
      this.master.set(file, lines, true);
      ops.push({ kind: 'M', path: file, content: lines });
    }
    await this.commit(MASTER, [this.tip(), feature.tip], ops, `Merge branch 'wip'\n`);
    this.outline.merges++;
    this.feature = null;
    this.afterMasterCommit();
  }

  private afterMasterCommit(): void {
    const count = this.outline.commits;
    const sampleEvery = Math.max(1, Math.floor(this.spec.commits / 60));
    if (count % sampleEvery === 0 && this.recent.length >= 6) {
      const file = this.master.pickEditable(this.prng);
      this.outline.samples.push({ mark: this.mark, baseMark: this.recent[0] ?? this.mark, file, dir: path.posix.dirname(file) });
    }
    this.recent.push(this.mark);
    if (this.recent.length > 6) this.recent.shift();
    this.outline.headMark = this.mark;
  }

  private tip(): number {
    return this.outline.headMark;
  }

  private async commit(ref: string, parents: number[], ops: FileOp[], message?: string): Promise<void> {
    this.mark++;
    this.time += this.prng.int(300, 5400);
    const first = ops.find((op) => op.kind !== 'R');
    const text = message ?? commitMessage(this.prng, first?.path ?? 'src/core');
    await writeCommit(this.sink, { ref, mark: this.mark, author: authorAt(this.prng.int(0, 11)), time: this.time, message: text, parents }, ops);
    this.outline.commits++;
    if (ref === MASTER && this.outline.commits % Math.max(100, Math.floor(this.spec.commits / 10)) === 0) {
      await writeReset(this.sink, `refs/tags/v0.${this.outline.commits}`, this.mark);
    }
    if (parents.length === 0) this.outline.headMark = this.mark;
  }
}
