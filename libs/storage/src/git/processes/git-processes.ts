/**
 * The git processes of one {@link StorageRuntime}: how they start (the spawner and its helper,
 * the overlay object directories they read) and how many run at once.
 */
import type { GitChildProcess } from './git-child-process.js';
import { gitArguments, gitEnvironment } from './git-command.js';
import { LiveProcessLimit } from '../limits/live-process-limit.js';
import { Semaphore } from '../limits/semaphore.js';
import { OverlayObjectDirectories } from '../objects/overlay-object-directories.js';
import { GitSpawner } from './spawn-git.js';

/** How a repository's git process writes its output. */
export interface SpawnGitOptions {
  /**
   * Output is read to its end, nobody waits for a single record: git writes full blocks.
   * Without it `rev-list`, `log` and their kin write every commit by itself whenever stdout
   * is a pipe (`GIT_FLUSH` unset), and each write wakes the reader. Never for a process that
   * answers requests one at a time over its pipes.
   */
  readonly blockBuffered?: boolean;
}

/** Starting git and bounding its processes, shared by every repository of a runtime. */
export class GitProcesses {
  /** Starts git, through the spawn helper while one is in use. */
  readonly spawner = new GitSpawner();
  /** Our object directories git reads with a repository's own (commit-graphs we keep). */
  readonly overlays = new OverlayObjectDirectories();
  /** Short-lived git commands running at once (the rest wait for a slot). */
  readonly commands = new Semaphore(4);
  /**
   * Long-lived cat-file processes kept alive (each holds a few MB of RSS and pack file
   * mappings; a listing over hundreds of repositories would otherwise keep one per repository
   * until the idle timeout).
   */
  readonly catFiles = new LiveProcessLimit(32);
  /** Long-lived diff-tree processes kept alive. */
  readonly diffTrees = new LiveProcessLimit(8);

  /**
   * Starts git on a repository with three pipes, no shell and the isolated environment (plus
   * the repository's overlay object directory): through the spawn helper while one is in use
   * ({@link useSpawnHelper}), else directly.
   * @param gitDir - the repository's git directory
   * @param args - subcommand and arguments (user-derived values after `--end-of-options`)
   * @returns the running process with its pipes
   * @throws ProcessFailedError when the process could not be set up
   */
  spawn(gitDir: string, args: readonly string[], options: SpawnGitOptions = {}): GitChildProcess {
    const env = { ...gitEnvironment(), ...this.overlays.environment(gitDir) };
    if (options.blockBuffered === true) env['GIT_FLUSH'] = '0';
    return this.spawner.start(gitArguments(gitDir, args), env);
  }

  /**
   * Makes git processes start through a small helper process until every user has released it
   * ({@link GitSpawner.useHelper}). A server calls this once at start-up, while it is still small.
   * @param log - receives one line when the helper cannot start, ends unexpectedly or is replaced
   * @returns releases this use (the last release ends the helper)
   */
  useSpawnHelper(log?: (message: string) => void): Promise<() => void> {
    return this.spawner.useHelper(log);
  }
}

/** A repository's git directory and the processes its git commands run under. */
export interface GitTarget {
  readonly gitDir: string;
  readonly processes: GitProcesses;
}
