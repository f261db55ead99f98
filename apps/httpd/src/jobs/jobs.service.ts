import { Injectable } from '@nestjs/common';
import type { Job } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CobStoreService } from '../cobs/cob-store.service.js';
import { toJob } from './job.mapper.js';

/** Jobs of a commit (docs/api.md 19, docs/radicle-httpd.md §5.19). */
@Injectable()
export class JobsService {
  constructor(private readonly cobs: CobStoreService) {}

  /**
   * `GET /repos/{rid}/jobs/{sha}`: jobs with at least one run, sorted by job id; `[]` when none
   * (the commit is not checked). A job nobody ran is left out, as radicle-httpd 0.27 does.
   */
  async list(ridText: string, sha: Oid): Promise<Job[]> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    return (await snapshot.jobs(sha)).filter((job) => job.runs.length > 0).map((job) => toJob(job, aliasOf));
  }
}
