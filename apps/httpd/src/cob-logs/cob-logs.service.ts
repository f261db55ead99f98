import { Injectable } from '@nestjs/common';
import type { CobChangeLog, CobObject } from '@forge-httpd/api-types';
import { type ChangeLogLimits, type LoggedChange, loadChangeLog, objectTipsOfType } from '@forge-httpd/cob';
import { NotFoundError, TooLargeError } from '@forge-httpd/identity';
import type { GitRepository, Oid } from '@forge-httpd/storage';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { toCobChange, toCobObject } from './cob-log.mapper.js';

/**
 * Bounds of one object's log (docs/operating.md "Limits and timeouts"): past either, its log
 * answers 413 and the listing leaves it out.
 */
const COB_LOG_LIMITS: ChangeLogLimits = { maxChanges: 2_000, maxActionBytes: 8 * 1024 * 1024 };
/** Objects listed per page at most (and by default). */
export const MAX_COB_OBJECTS_PER_PAGE = 100;

/**
 * Change logs of any COB type (docs/api.md, "Collaborative-object change logs"), read from the
 * refs and commits as they are now; only changes whose signature verifies are shown.
 */
@Injectable()
export class CobLogsService {
  constructor(private readonly access: RepositoryAccess) {}

  /**
   * `GET /repos/{rid}/cobs/{typeName}`: objects by id, one page; an object without a signed
   * change, or past {@link COB_LOG_LIMITS}, is left out.
   * @throws InvalidInputError / NotFoundError from {@link RepositoryAccess}
   */
  async listObjects(ridText: string, typeName: string, page: { page: number; perPage: number }): Promise<CobObject[]> {
    const { git } = await this.access.openPublic(ridText);
    const perPage = Math.min(page.perPage, MAX_COB_OBJECTS_PER_PAGE);
    const objects = [...(await objectTipsOfType(git, typeName))].slice(page.page * perPage, (page.page + 1) * perPage);
    const items = await Promise.all(objects.map(async ([id, tips]) => toCobObject(id, (await boundedLog(git, typeName, tips)) ?? [])));
    return items.filter((item): item is CobObject => item !== null);
  }

  /**
   * `GET /repos/{rid}/cobs/{typeName}/{id}`.
   * @throws NotFoundError (404) when the object has no ref or no signed change;
   *   TooLargeError (413) past {@link COB_LOG_LIMITS}
   */
  async changeLog(ridText: string, typeName: string, id: Oid): Promise<CobChangeLog> {
    const { git } = await this.access.openPublic(ridText);
    const tips = (await objectTipsOfType(git, typeName)).get(id);
    const changes = tips === undefined ? [] : await loadChangeLog(git, { typeName, tips, limits: COB_LOG_LIMITS });
    if (changes.length === 0) throw new NotFoundError('object', `object ${id} not found`);
    return { typeName, id, changes: changes.map(toCobChange) };
  }
}

/** The log, or null when it is past the bounds. */
async function boundedLog(git: GitRepository, typeName: string, tips: readonly Oid[]): Promise<LoggedChange[] | null> {
  try {
    return await loadChangeLog(git, { typeName, tips, limits: COB_LOG_LIMITS });
  } catch (error) {
    if (error instanceof TooLargeError) return null;
    throw error;
  }
}
