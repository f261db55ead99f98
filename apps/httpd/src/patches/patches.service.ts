import { NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { Patch } from '@forge-httpd/api-types';
import { type PatchStatusFilter } from '@forge-httpd/cob';
import type { Oid } from '@forge-httpd/storage';
import { CobStoreService } from '../cobs/cob-store.service.js';
import { type PageRequest, pageRange } from '../platform/pagination.js';
import { toPatch } from './patch.mapper.js';

/** Patches of a public repository, evaluated from git (docs/api.md 22–23). */
@Injectable()
export class PatchesService {
  constructor(private readonly cobs: CobStoreService) {}

  /** `GET /repos/{rid}/patches`: filtered by status, newest first, one page. */
  async list(ridText: string, query: PageRequest & { status: PatchStatusFilter }): Promise<Patch[]> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    const range = pageRange(query);
    if (range === null) return [];
    // Evaluates only what the page needs while the whole listing is not in memory yet.
    return (await snapshot.patchPage(query.status, range)).map((patch) => toPatch(patch, aliasOf));
  }

  /**
   * `GET /repos/{rid}/patches/{id}`.
   * @throws NotFoundError (404) when the patch does not exist or is invalid
   */
  async get(ridText: string, id: Oid): Promise<Patch> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    const patch = await snapshot.patch(id);
    if (patch === null) throw new NotFoundError('patch', `${'patch'} ${id} not found`);
    return toPatch(patch, aliasOf);
  }
}
