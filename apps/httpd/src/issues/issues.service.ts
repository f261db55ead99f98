import { NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { Issue } from '@forge-httpd/api-types';
import { type IssueStatusFilter } from '@forge-httpd/cob';
import type { Oid } from '@forge-httpd/storage';
import { type PageRequest, pageRange } from '../platform/pagination.js';
import { CobStoreService } from '../cobs/cob-store.service.js';
import { toIssue } from './issue.mapper.js';

/** Issues of a public repository, evaluated from git (docs/api.md 20–21). */
@Injectable()
export class IssuesService {
  constructor(private readonly cobs: CobStoreService) {}

  /** `GET /repos/{rid}/issues`: filtered by status, newest first, one page. */
  async list(ridText: string, query: PageRequest & { status: IssueStatusFilter }): Promise<Issue[]> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    const range = pageRange(query);
    if (range === null) return [];
    // Evaluates only what the page needs while the whole listing is not in memory yet.
    return (await snapshot.issuePage(query.status, range)).map((issue) => toIssue(issue, aliasOf));
  }

  /**
   * `GET /repos/{rid}/issues/{id}`.
   * @throws NotFoundError (404) when the issue does not exist or is invalid
   */
  async get(ridText: string, id: Oid): Promise<Issue> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    const issue = await snapshot.issue(id);
    if (issue === null) throw new NotFoundError('issue', `${'issue'} ${id} not found`);
    return toIssue(issue, aliasOf);
  }
}
