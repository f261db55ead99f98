import { Inject, Injectable } from '@nestjs/common';
import { compareUtf8, parseRid, type Rid } from '@forge-httpd/identity';
import type { NodeHome, WebConfig } from '@forge-httpd/storage';
import { ServerConfig } from '../config/server-config.js';
import { NODE_HOME } from '../platform/tokens.js';

/** The aliases in force for one version of config.json's web section. */
interface AliasTables {
  readonly web: WebConfig;
  readonly byName: ReadonlyMap<string, Rid>;
  /** The alias shown on a repository's info: the first of its names in byte order. */
  readonly byRid: ReadonlyMap<Rid, string>;
}

/**
 * Repository aliases (docs/api.md, "Repository aliases"): names standing for a RID in request
 * paths, from `--alias` flags and config.json's `web.aliases` (re-read when the file changes);
 * a flag wins over the file for the same name. A RID always means itself: no alias name can
 * be read as one.
 */
@Injectable()
export class RepositoryAliases {
  private kept: AliasTables | null = null;

  constructor(
    private readonly config: ServerConfig,
    @Inject(NODE_HOME) private readonly home: NodeHome,
  ) {}

  /**
   * The RID that `{rid}` path text names: a RID, else a configured alias.
   * @throws InvalidInputError (400) when it is neither, as a malformed RID
   */
  parse(text: string): Rid {
    try {
      return parseRid(text);
    } catch (error) {
      const rid = this.tables()?.byName.get(text);
      if (rid === undefined) throw error;
      return rid;
    }
  }

  /** The RID that path text names, or null when it names none. */
  resolve(text: string): Rid | null {
    try {
      return this.parse(text);
    } catch {
      return null;
    }
  }

  /** The alias shown on `rid`'s info, or undefined when it has none. */
  aliasOf(rid: Rid): string | undefined {
    return this.tables()?.byRid.get(rid);
  }

  /** The tables in force now; null when no alias is configured (nothing to build). */
  private tables(): AliasTables | null {
    const web = this.home.currentWebConfig();
    if (this.config.aliases.size === 0 && web.aliases === undefined) return null;
    if (this.kept?.web === web) return this.kept;
    const byName = new Map<string, Rid>(web.aliases ?? []);
    for (const [name, rid] of this.config.aliases) byName.set(name, rid);
    const byRid = new Map<Rid, string>();
    for (const name of [...byName.keys()].sort(compareUtf8)) {
      const rid = byName.get(name) as Rid;
      if (!byRid.has(rid)) byRid.set(rid, name);
    }
    this.kept = { web, byName, byRid };
    return this.kept;
  }
}
