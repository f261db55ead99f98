// Scratch repositories for tests and the diff oracle: a commit history written from a
// description with `git fast-import`, and the isolated git runner it uses.
export { EMPTY_TREE, execGit, gitDiff } from './scratch/git-exec.js';
export type { GitExec } from './scratch/git-exec.js';
export { writeScratchHistory } from './scratch/scratch-history.js';
export type { ScratchChange, ScratchCommit } from './scratch/scratch-history.js';
