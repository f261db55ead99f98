import { Inject, Injectable } from '@nestjs/common';
import type { NodeIdentity } from '@forge-httpd/api-types';
import { didFromNid, formatSshPublicKey, type Nid, publicKeyFromNid, sshFingerprint } from '@forge-httpd/identity';
import { type NodeHome, resolveAlias } from '@forge-httpd/storage';
import { NODE_HOME } from '../platform/tokens.js';
import { toNodeIdentity } from './nodes.mapper.js';
import { StampedAnswers } from '../node/stamped-answers.js';

/**
 * Inventories kept for the version of node.db they were read from: a few nodes' (a node
 * page asks for one), ~3 MB of RIDs at most together.
 */
const KEPT_INVENTORIES = { lists: 8, items: 20_000 } as const;

/** Any node by id: identity forms and announced inventory (docs/api.md 4–5). */
@Injectable()
export class NodesService {
  private readonly inventories = new StampedAnswers<string>(KEPT_INVENTORIES);

  constructor(@Inject(NODE_HOME) private readonly home: NodeHome) {}

  /** `GET /nodes/{nid}`: always answers for a well-formed NID. */
  identity(nid: Nid): NodeIdentity {
    const publicKey = publicKeyFromNid(nid);
    return toNodeIdentity({
      alias: resolveAlias(this.home, nid),
      did: didFromNid(nid),
      sshFull: formatSshPublicKey(publicKey),
      sshHash: sshFingerprint(publicKey),
    });
  }

  /**
   * `GET /nodes/{nid}/inventory`: RIDs ascending (docs/decisions.md), `[]` for unknown nodes.
   * Read again only when node.db changed: a node announcing many repositories costs a query.
   */
  inventory(nid: Nid): string[] {
    const db = this.home.nodeDb;
    return this.inventories.get(db.changeStamp(), nid, () => db.inventory(nid));
  }
}
