/**
 * Internals that tests look at and library users do not: what a kept last-commit file's header
 * declares, and what its index weighs in the memory budget (to size a budget around it).
 */
export { storedCounts } from './git/history/commit-changes-file.js';
export { commitChangesSize } from './git/history/commit-changes.js';
