import path from 'node:path';
import { NotFoundError } from '@forge-httpd/identity';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Tree, TreeStats } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { GitContentCache } from '../git-content/git-content-cache.js';
import { GitContentService } from '../git-content/git-content.service.js';
import { toCommit } from '../git-content/commit.mapper.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { ServerConfig } from '../config/server-config.js';
import { HistoryStatsCounter } from './history-stats.js';
import { HISTORY_STATS_FILE } from './history-stats-file.js';
import { toTree } from './tree.mapper.js';

/** Directory listings and per-commit statistics (docs/api.md 13–14). */
@Injectable()
export class TreeService implements OnModuleDestroy {
  private readonly historyStats: HistoryStatsCounter;

  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
    private readonly cache: GitContentCache,
    config: ServerConfig,
  ) {
    this.historyStats = new HistoryStatsCounter(config.cacheDir === null ? null : path.join(config.cacheDir, HISTORY_STATS_FILE));
  }

  /** Writes the counted histories not written yet. */
  onModuleDestroy(): void {
    this.historyStats.flush();
  }

  /**
   * `GET /tree/{sha}/{path}` (docs/radicle-httpd.md §5.13): the directory at `path` ('' = root).
   * @throws NotFoundError: commit or path (also when the path names a file or submodule)
   */
  async getTree(ridText: string, request: { sha: Oid; path: string }): Promise<Tree> {
    const { git, rid } = await this.access.openPublic(ridText);
    // Keyed by repository too (another one may lack the commit) and looked up after the gate,
    // so a private repository never reaches the cache.
    return this.cache.trees.getOrLoad(`${rid}\0${request.sha}\0${request.path}`, async () => {
      const commit = await this.content.requireCommit(git, request.sha);
      // From the commit's tree: the commit was just read.
      const entry = await git.findEntry(commit.tree, request.path);
      const entries = entry?.kind === 'tree' ? await git.readTree(entry.oid) : null;
      if (entries === null) throw new NotFoundError('path');
      // Browsing starts at a tree; the blob and readme pages that follow need the last-commit
      // index, which takes seconds to read on a long history: start it in the background,
      // once this page is answered (its processes and output would share this page's cores).
      setImmediate(() => void git.indexHistory(request.sha).catch(() => undefined));
      return toTree({ path: request.path, entries, commit: toCommit(commit) });
    });
  }

  /**
   * `GET /stats/tree/{sha}` (docs/radicle-httpd.md §5.14): commits and contributors reachable from `sha` (cached
   * per commit), and the repository's number of branches.
   * @throws NotFoundError
   */
  async getStats(ridText: string, sha: Oid): Promise<TreeStats> {
    const { git, rid } = await this.access.openPublic(ridText);
    await this.content.requireCommit(git, sha);
    const history = await this.cache.historyStats.getOrLoad(sha, () => this.historyStats.count(rid, git, sha));
    const branches = (await git.listRefs('refs/heads/')).length;
    return { commits: history.commits, branches, contributors: history.contributors };
  }
}
