import type { Lines } from './history-content.js';
import type { Prng } from './prng.js';

/** File content held by the generator: text as lines, or raw bytes for binary files. */
export type Content = Lines | Buffer;

/** One file change of a commit, in fast-import terms. */
export type FileOp =
  | { readonly kind: 'M'; readonly path: string; readonly content: Content }
  | { readonly kind: 'D'; readonly path: string }
  | { readonly kind: 'R'; readonly from: string; readonly to: string };

/**
 * The files of one branch tip. `editable` lists the text files commits may touch (O(1) random
 * pick and removal), so 50,000 commits over 5,000 files stay linear.
 */
export class BranchTree {
  readonly files: Map<string, Content>;
  private readonly editable: string[];
  private readonly slots: Map<string, number>;

  constructor(source?: BranchTree) {
    this.files = new Map(source?.files);
    this.editable = source ? source.editable.slice() : [];
    this.slots = new Map(source?.slots);
  }

  get editableCount(): number {
    return this.editable.length;
  }

  /** A random editable path (text file). */
  pickEditable(prng: Prng): string {
    return prng.pick(this.editable);
  }

  /** Sets a file; `editable` marks it as a text file that later commits may modify. */
  set(filePath: string, content: Content, editable: boolean): void {
    this.files.set(filePath, content);
    if (editable && !this.slots.has(filePath)) {
      this.slots.set(filePath, this.editable.length);
      this.editable.push(filePath);
    }
  }

  delete(filePath: string): void {
    this.files.delete(filePath);
    const slot = this.slots.get(filePath);
    if (slot === undefined) return;
    const last = this.editable.pop();
    if (last !== undefined && last !== filePath) {
      this.editable[slot] = last;
      this.slots.set(last, slot);
    }
    this.slots.delete(filePath);
  }

  text(filePath: string): Lines {
    const content = this.files.get(filePath);
    if (content === undefined || Buffer.isBuffer(content)) throw new Error(`not a text file: ${filePath}`);
    return content;
  }
}
