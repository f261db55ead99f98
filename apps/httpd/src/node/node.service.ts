import { Inject, Injectable } from '@nestjs/common';
import type { NodeInfo, RepoPolicy, SeedingPolicy } from '@forge-httpd/api-types';
import type { Rid } from '@forge-httpd/identity';
import type { NodeHome } from '@forge-httpd/storage';
import { NODE_HOME } from '../platform/tokens.js';
import { toNodeInfo, toRepoPolicy, toSeedingPolicy } from './node.mapper.js';
import { StampedAnswers } from './stamped-answers.js';

/** Timeout of each control-socket query (docs/api.md "Limits"). */
const SOCKET_QUERY_TIMEOUT_MS = 500;
/** Our own bound around each query, in case the client outlives its timeout. */
const SOCKET_QUERY_GUARD_MS = 750;

function withGuard<T>(promise: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), SOCKET_QUERY_GUARD_MS);
  });
  return Promise.race([promise.catch(() => fallback), guard]).finally(() => clearTimeout(timer));
}

/** Rows of the policy list kept for the version of policies.db it was read from (~3 MB at most). */
const MAX_KEPT_POLICY_ROWS = 20_000;

/** The local node: identity, liveness, configuration, seeding policies (docs/api.md 1–3). */
@Injectable()
export class NodeService {
  /** The policy list, for the policies.db version it was read from. */
  private readonly keptPolicies = new StampedAnswers<RepoPolicy>({ lists: 1, items: MAX_KEPT_POLICY_ROWS });

  constructor(@Inject(NODE_HOME) private readonly home: NodeHome) {}

  /**
   * `GET /node`. The two socket queries run concurrently, so the answer takes at most about
   * 500 ms even when the socket accepts and never answers (docs/decisions.md "Node and configuration").
   */
  async nodeInfo(): Promise<NodeInfo> {
    const socket = this.home.controlSocket;
    const [running, config] = await Promise.all([
      withGuard(socket.status(SOCKET_QUERY_TIMEOUT_MS), false),
      withGuard(socket.config(SOCKET_QUERY_TIMEOUT_MS), null),
    ]);
    return toNodeInfo({
      nid: this.home.nid,
      agent: this.home.nodeDb.agent(this.home.nid),
      running,
      config,
      web: this.home.currentWebConfig(),
    });
  }

  /**
   * `GET /node/policies/repos`: stored rows in table order, unfiltered (docs/radicle-httpd.md §5.2).
   * Read again only when policies.db changed: its query is most of the answer's cost, and the
   * change check is one cheap query.
   */
  policies(): RepoPolicy[] {
    const db = this.home.policiesDb;
    return this.keptPolicies.get(db.changeStamp(), '', () => db.seedingPolicies().map(toRepoPolicy));
  }

  /** `GET /node/policies/repos/{rid}`: the stored row, else the startup default (docs/radicle-httpd.md §5.3). */
  policy(rid: Rid): SeedingPolicy {
    return toSeedingPolicy(this.home.effectiveSeedingPolicy(rid));
  }
}
