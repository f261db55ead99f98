import type { Rid } from '@forge-httpd/identity';
import { cobTypeName, type Flavour, isPublicSummary, type NodeHome, RefTreeStamper } from '@forge-httpd/storage';
import { diffPictures, pictureRefs, type RefsPicture, type StorageEvent } from './storage-changes.js';

/** What the watcher knows of one public repository. */
interface Watched {
  /** Stamp of its ref folders when last read and settled; null: read them again next time. */
  stamp: string | null;
  picture: RefsPicture;
}

/** Options of {@link StorageWatcher}. */
export interface StorageWatcherOptions {
  readonly home: NodeHome;
  readonly flavour: Flavour;
  /** Time between the end of one look and the start of the next, in ms. */
  readonly pollMs: number;
  /** Receives the events of one look, in order (none when nothing changed). */
  readonly emit: (events: readonly StorageEvent[]) => void;
  /** Receives a look that failed (the next look tries again). */
  readonly warn: (message: string) => void;
}

/**
 * Watches the node home's storage for the event streams: one watcher per server, whatever
 * the number of clients. Each look lists `storage/`, checks each repository's visibility
 * through the storage index (a `stat` of its identity refs, the document read again when they
 * moved) and its refs through a `stat` stamp of its ref folders; only a repository whose stamp
 * moved (or was not settled yet) has its refs listed and compared with the last picture. It
 * reads the files themselves, so changes show whether or not a node is running
 * (docs/decisions.md "Live updates").
 */
export class StorageWatcher {
  private readonly watched = new Map<Rid, Watched>();
  private readonly stamper: RefTreeStamper;
  private readonly types: { readonly issue: string; readonly patch: string };
  private timer: NodeJS.Timeout | null = null;
  private started: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: StorageWatcherOptions) {
    this.stamper = new RefTreeStamper(options.home.now);
    this.types = { issue: cobTypeName(options.flavour, 'issue'), patch: cobTypeName(options.flavour, 'patch') };
  }

  /** Takes the first picture of every public repository (no events), then looks periodically. */
  start(): Promise<void> {
    this.started ??= this.look(true).then(() => this.schedule());
    return this.started;
  }

  /** Whether `rid` was public at the last look. */
  isPublic(rid: Rid): boolean {
    return this.watched.has(rid);
  }

  /** Stops looking and forgets every picture. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.watched.clear();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.look(false).then(
        () => this.schedule(),
        (error: unknown) => {
          this.options.warn(`event watcher: ${error instanceof Error ? error.message : String(error)}`);
          this.schedule();
        },
      );
    }, this.options.pollMs);
  }

  /** One look over storage; `first`: remember what is there without events. */
  private async look(first: boolean): Promise<void> {
    const { storage } = this.options.home;
    const rids = new Set<Rid>([...(await storage.listRepositoryIds()), ...this.watched.keys()]);
    const events: StorageEvent[] = [];
    for (const rid of [...rids].sort()) {
      if (this.stopped) return;
      try {
        events.push(...(await this.lookAt(rid, first)));
      } catch (error) {
        // One unreadable repository must not stop the events of the others; it is looked at again next time.
        this.options.warn(`event watcher: ${rid}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (events.length > 0 && !this.stopped) this.options.emit(events);
  }

  /** The events of one repository since the last look. */
  private async lookAt(rid: Rid, first: boolean): Promise<StorageEvent[]> {
    const known = this.watched.get(rid);
    const picture = await this.publicPicture(rid, known);
    if (picture === null) {
      if (known === undefined) return [];
      // Made private or removed: the same event, so a private repository looks absent.
      this.watched.delete(rid);
      return [{ type: 'repo', rid, public: false }];
    }
    this.watched.set(rid, picture);
    if (known === undefined) return first ? [] : [{ type: 'repo', rid, public: true }];
    return known.picture === picture.picture ? [] : diffPictures(rid, known.picture, picture.picture);
  }

  /**
   * The current picture of a public repository (the known one when its stamp is unchanged),
   * or null when it is absent or not public. Visibility is checked again after the refs were
   * read, so refs that made it private are never compared (never sent).
   */
  private async publicPicture(rid: Rid, known: Watched | undefined): Promise<Watched | null> {
    const { home } = this.options;
    if (!(await this.isPublicNow(rid))) return null;
    const stamp = this.stamper.stamp(home.storage.gitDirOf(rid), ['refs']);
    if (known !== undefined && known.stamp !== null && known.stamp === stamp.key) return known;
    const refs = await home.storage.withRepository(rid, async (repository) => (repository === null ? null : repository.git.listRefs('refs/')));
    if (refs === null || !(await this.isPublicNow(rid))) return null;
    return { stamp: stamp.settled ? stamp.key : null, picture: pictureRefs(refs, this.types) };
  }

  private async isPublicNow(rid: Rid): Promise<boolean> {
    const summary = await this.options.home.storageIndex.current(rid);
    return summary !== undefined && isPublicSummary(summary);
  }
}
