/**
 * A deterministic, varied commit history for the diff oracle: edits, additions, deletions,
 * renames and copies (with and without edits), mode changes, binary files, symlinks,
 * submodules, type changes, whole-directory deletions, empty files, CRLF, missing final
 * newlines, non-UTF-8 lines and awkward paths, plus merges.
 */
import type { ScratchChange, ScratchCommit } from '@forge-httpd/builder/scratch';

type TextEntry = { kind: 'text'; lines: Buffer[]; eol: string; finalNewline: boolean; executable: boolean };
type Entry = TextEntry | { kind: 'binary'; bytes: Buffer } | { kind: 'link'; target: string };

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'fn main() {', '}', 'return x;', '  if (y) {', '# heading', 'ünïcode ✓', '', '\tindented'];
const AWKWARD = ['with space.txt', 'tab\tname', 'new\nline', 'quote"d', 'back\\slash', 'ファイル.md', '-leading-dash', 'dir with space/inner file'];
const START = 1_600_000_000;

function textEntry(lines: string[]): TextEntry {
  return { kind: 'text', lines: lines.map((line) => Buffer.from(line)), eol: '\n', finalNewline: true, executable: false };
}

/** Small seeded PRNG (mulberry32), so the history is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class HistoryGenerator {
  private readonly rand: () => number;
  private readonly files = new Map<string, Entry>();
  private readonly commits: ScratchCommit[] = [];
  private counter = 0;
  private lastMain = 0;

  constructor(seed: number) {
    this.rand = random(seed);
  }

  generate(count: number): ScratchCommit[] {
    while (this.commits.length < count) {
      if (this.commits.length > 4 && this.rand() < 0.08) this.mergeSideBranch();
      else this.push([...this.randomChanges()]);
    }
    return this.commits.slice(0, count);
  }

  private push(changes: ScratchChange[], parents?: number[]): void {
    const index = this.commits.length;
    const time = START + index * 3600 + Math.floor(this.rand() * 600);
    this.commits.push({ message: `commit ${index}\n\nvaried change\n`, time, parents: parents ?? (index === 0 ? [] : [this.lastMain]), changes });
    this.lastMain = index;
  }

  private mergeSideBranch(): void {
    const base = Math.floor(this.rand() * this.lastMain);
    const name = `side/${this.counter++}.txt`;
    const side: ScratchChange = { path: name, content: 'from a side branch\n' };
    const mainTip = this.lastMain;
    this.commits.push({ message: 'side\n', time: START + this.commits.length * 3600, parents: [base], changes: [side] });
    const sideIndex = this.commits.length - 1;
    this.files.set(name, textEntry(['from a side branch']));
    this.push([side], [mainTip, sideIndex]);
  }

  private *randomChanges(): Generator<ScratchChange, void> {
    const operations = 1 + Math.floor(this.rand() * 4);
    for (let index = 0; index < operations; index++) yield* this.operation();
  }

  private *operation(): Generator<ScratchChange, void> {
    const paths = [...this.files.keys()];
    const pick = (): string | undefined => paths[Math.floor(this.rand() * paths.length)];
    const roll = this.rand();
    const path = pick();
    if (path === undefined || roll < 0.2) return yield* this.addFile();
    if (roll < 0.5) return yield* this.editFile(path);
    if (roll < 0.58) return yield* this.remove([path]);
    if (roll < 0.68) return yield* this.rename(path, this.rand() < 0.5);
    if (roll < 0.74) return yield* this.copy(path);
    if (roll < 0.8) return yield* this.chmod(path);
    if (roll < 0.86) return yield* this.typeChange(path);
    if (roll < 0.9) return yield* this.remove(paths.filter((other) => other.startsWith(path.split('/')[0] ?? '')));
    if (roll < 0.95) {
      yield { path: `mods/sub${Math.floor(this.rand() * 3)}`, submodule: this.hex40() };
      return;
    }
    return yield* this.addFile(AWKWARD[Math.floor(this.rand() * AWKWARD.length)]);
  }

  private *addFile(name?: string): Generator<ScratchChange, void> {
    const dir = ['src', 'docs', 'lib/deep/er', 'assets', ''][Math.floor(this.rand() * 5)] ?? '';
    const path = name ?? `${dir}${dir === '' ? '' : '/'}file${this.counter++}${this.rand() < 0.5 ? '.txt' : '.rs'}`;
    const roll = this.rand();
    if (roll < 0.1) {
      const bytes = Buffer.from(Array.from({ length: 64 }, () => Math.floor(this.rand() * 256)));
      bytes[3] = 0;
      this.files.set(path, { kind: 'binary', bytes });
    } else if (roll < 0.17) {
      this.files.set(path, { kind: 'link', target: `../target/${this.counter++}` });
    } else {
      const lines = roll < 0.22 ? [] : Array.from({ length: 3 + Math.floor(this.rand() * 40) }, () => this.word());
      const eol = this.rand() < 0.1 ? '\r\n' : '\n';
      this.files.set(path, { ...textEntry([]), lines, eol, finalNewline: this.rand() > 0.15 });
    }
    yield this.write(path);
  }

  private *editFile(path: string): Generator<ScratchChange, void> {
    const entry = this.files.get(path);
    if (entry?.kind === 'binary') entry.bytes[Math.floor(this.rand() * entry.bytes.length)] = Math.floor(this.rand() * 256);
    if (entry?.kind === 'link') entry.target += 'x';
    if (entry?.kind === 'text') {
      const edits = 1 + Math.floor(this.rand() * 5);
      for (let index = 0; index < edits; index++) this.editLines(entry.lines);
      if (this.rand() < 0.1) entry.finalNewline = !entry.finalNewline;
    }
    yield this.write(path);
  }

  private editLines(lines: Buffer[]): void {
    const at = Math.floor(this.rand() * (lines.length + 1));
    const roll = this.rand();
    if (roll < 0.4) lines.splice(at, 0, this.word());
    else if (roll < 0.7) lines.splice(at, 1);
    else if (roll < 0.9) lines.splice(at, 1, this.word());
    else lines.splice(at, 0, Buffer.from('\xe9t\xe9 latin1', 'latin1'));
  }

  private *remove(paths: string[]): Generator<ScratchChange, void> {
    for (const path of paths) {
      this.files.delete(path);
      yield { path, delete: true };
    }
  }

  private *rename(path: string, edit: boolean): Generator<ScratchChange, void> {
    const entry = this.files.get(path);
    if (entry === undefined) return;
    const target = `moved/${this.counter++}-${path.split('/').at(-1) ?? 'x'}`;
    this.files.delete(path);
    this.files.set(target, entry);
    if (edit && entry.kind === 'text') this.editLines(entry.lines);
    yield { path, delete: true };
    yield this.write(target);
  }

  private *copy(path: string): Generator<ScratchChange, void> {
    const entry = this.files.get(path);
    if (entry?.kind !== 'text') return;
    const target = `copies/${this.counter++}.txt`;
    this.files.set(target, { ...entry, lines: [...entry.lines] });
    yield this.write(target);
    // git -C only finds copies from files modified in the same commit.
    entry.lines.push(this.word());
    yield this.write(path);
  }

  private *chmod(path: string): Generator<ScratchChange, void> {
    const entry = this.files.get(path);
    if (entry?.kind !== 'text') return;
    entry.executable = !entry.executable;
    yield this.write(path);
  }

  private *typeChange(path: string): Generator<ScratchChange, void> {
    const entry = this.files.get(path);
    const next: Entry = entry?.kind === 'link' ? textEntry(['was a link']) : { kind: 'link', target: 'now/a/link' };
    this.files.set(path, next);
    yield this.write(path);
  }

  private write(path: string): ScratchChange {
    const entry = this.files.get(path);
    if (entry === undefined) return { path, delete: true };
    if (entry.kind === 'binary') return { path, content: Buffer.from(entry.bytes) };
    if (entry.kind === 'link') return { path, link: entry.target };
    const eol = Buffer.from(entry.eol);
    const body = entry.lines.flatMap((line, index) => (index === 0 ? [line] : [eol, line]));
    const final = entry.finalNewline && entry.lines.length > 0 ? [eol] : [];
    return { path, content: Buffer.concat([...body, ...final]), kind: entry.executable ? 'executable' : 'file' };
  }

  private word(): Buffer {
    return Buffer.from(WORDS[Math.floor(this.rand() * WORDS.length)] ?? 'x', 'utf8');
  }

  private hex40(): string {
    return Array.from({ length: 40 }, () => Math.floor(this.rand() * 16).toString(16)).join('');
  }
}

/**
 * Generates `count` commits of varied changes, the same for the same seed.
 * @param count - number of commits (merges and their side commits included)
 * @param seed - PRNG seed
 * @returns the commits, ready for `writeScratchHistory`
 */
export function generateHistory(count: number, seed = 1): ScratchCommit[] {
  return new HistoryGenerator(seed).generate(count);
}
