import { Inject, Injectable } from '@nestjs/common';
import type { NodeIdentity } from '@forge-httpd/api-types';
import { didFromNid, formatSshPublicKey, type Nid, publicKeyFromNid, sshFingerprint } from '@forge-httpd/identity';
import { type NodeHome, resolveAlias } from '@forge-httpd/storage';
import { NODE_HOME } from '../platform/tokens.js';
import { toNodeIdentity } from './nodes.mapper.js';

/** Any node by id: identity forms and announced inventory (docs/api.md 4–5). */
@Injectable()
export class NodesService {
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

  /** `GET /nodes/{nid}/inventory`: RIDs ascending (docs/decisions.md), `[]` for unknown nodes. */
  inventory(nid: Nid): string[] {
    return this.home.nodeDb.inventory(nid);
  }
}
