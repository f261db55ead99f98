import { InvalidDataError } from '@forge-httpd/identity';
import { readFileSync, statSync } from 'node:fs';
import { parseJsonObject, parseWebConfig, type WebConfig } from './profile-config.js';

/** Receives one message per distinct config.json problem. */
export type ConfigLogger = (message: string, error?: unknown) => void;

/** What identifies one version of the file: inode, size, mtime and ctime in nanoseconds. */
function statKey(path: string): string | null {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch {
    return null;
  }
}

/**
 * Keeps the `web` section of config.json current (docs/decisions.md, "Node and configuration"):
 * each {@link current} call stats the file and re-reads it when its (inode, size, mtime ns,
 * ctime ns) changed or the previous read failed. Only `web` is taken from a re-read. An
 * invalid file keeps the last good `web` and is logged once per file version.
 */
export class WebConfigWatcher {
  private readonly path: string;
  private readonly log: ConfigLogger;
  private readonly onReload: ((web: WebConfig) => void) | undefined;
  private web: WebConfig;
  private key: string | null;
  private lastReadFailed = false;
  private lastLoggedKey: string | null | undefined = undefined;

  /**
   * @param options.path - config.json
   * @param options.initial - the `web` section parsed at startup
   * @param options.initialKey - the file's stat key taken before that startup read
   * @param options.log - called once per invalid file version
   * @param options.onReload - called after each successful re-read (not the startup read)
   */
  constructor(options: { path: string; initial: WebConfig; initialKey?: string | null; log: ConfigLogger; onReload?: (web: WebConfig) => void }) {
    this.path = options.path;
    this.web = options.initial;
    this.key = options.initialKey === undefined ? statKey(options.path) : options.initialKey;
    this.log = options.log;
    this.onReload = options.onReload;
  }

  /** The stat key of `path` now, for {@link WebConfigWatcher} construction. */
  static statKey(path: string): string | null {
    return statKey(path);
  }

  /** The current web settings, re-reading config.json first if it changed. */
  current(): WebConfig {
    const key = statKey(this.path);
    if (key !== this.key || this.lastReadFailed) this.reread(key);
    return this.web;
  }

  /** Re-reads config.json now, whatever its stat says (SIGHUP). */
  reload(): WebConfig {
    this.reread(statKey(this.path));
    return this.web;
  }

  private reread(key: string | null): void {
    this.key = key;
    try {
      if (key === null) throw new InvalidDataError('config', 'config.json: cannot stat the file');
      const root = parseJsonObject(readFileSync(this.path, 'utf8'));
      this.web = parseWebConfig(root['web']);
      this.lastReadFailed = false;
      this.lastLoggedKey = undefined;
      this.onReload?.(this.web);
    } catch (error) {
      this.lastReadFailed = true;
      if (this.lastLoggedKey !== key) {
        this.lastLoggedKey = key;
        const reason = error instanceof InvalidDataError && error.what === 'config' ? error.message : 'config.json: cannot read the file';
        this.log(`${reason}; keeping the previous web settings`, error);
      }
    }
  }
}
