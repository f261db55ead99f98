import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { Rid } from '@forge-httpd/identity';
import type { RepositoryAccess } from '../repository-access/repository-access.service.js';
import type { RepositoryStateProbe } from './repository-state.js';
import { isRepositoryNotFound } from '../platform/repository-not-found.js';

/** A repository whose verdict is remembered, with the identity state it was checked at. */
interface Verdict {
  readonly stamp: string;
  readonly visible: boolean;
}

/** Repositories whose verdict is remembered (least recently used forgotten first). */
const MAX_VERDICTS = 4096;

/**
 * Answers "may a cached answer of this repository be served?" before every cache hit
 * (docs/decisions.md: private == absent, also for answers rendered while it was public). The
 * verdict comes from {@link RepositoryAccess} (the same gate every handler uses) and is
 * remembered with the repository's identity state; while that state is unchanged (a few
 * `stat` calls) the verdict stands, so a hit costs no git round trip. A moved `refs/rad/id`,
 * a repack or a deleted folder changes the state and the next hit asks RepositoryAccess again.
 */
export class VisibilityGate {
  private readonly verdicts = new BoundedCache<Rid, Verdict>({ maxEntries: MAX_VERDICTS });
  private readonly checks = new Map<string, Promise<boolean>>();
  private access: RepositoryAccess | null = null;

  constructor(private readonly probe: RepositoryStateProbe) {}

  /** Connects the gate to the application's RepositoryAccess (available once Nest is up). */
  bind(access: RepositoryAccess): void {
    this.access = access;
  }

  /**
   * Whether the repository is public now: synchronous when its identity state matches the
   * remembered verdict, else a fresh check. False also when the check failed otherwise than
   * "not found": the caller then lets the handler answer, with its own error.
   */
  isPublic(rid: Rid, gitDir: string): boolean | Promise<boolean> {
    const state = this.probe.identityState(gitDir);
    if (state === null || this.access === null) return false;
    const verdict = this.verdicts.get(rid);
    if (state.settled && verdict?.stamp === state.stamp) return verdict.visible;
    const id = `${rid}\0${state.stamp}`;
    const running = this.checks.get(id);
    if (running !== undefined) return running;
    const check = this.check(this.access, rid).then((visible) => {
      this.checks.delete(id);
      if (visible !== null && state.settled) this.verdicts.set(rid, { stamp: state.stamp, visible });
      return visible === true;
    });
    this.checks.set(id, check);
    return check;
  }

  /** True = public, false = absent or private, null = the check failed for another reason. */
  private async check(access: RepositoryAccess, rid: Rid): Promise<boolean | null> {
    try {
      await access.openPublicRid(rid);
      return true;
    } catch (error) {
      return isRepositoryNotFound(error) ? false : null;
    }
  }
}
