import { Injectable } from '@nestjs/common';
import type { Job } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CobStoreService } from '../cobs/cob-store.service.js';
import { toJob } from './job.mapper.js';

/** Jobs of a commit (docs/api.md 19, docs/radicle-httpd.md §5.19). */
@Injectable()
export class JobsService {
  constructor(private readonly cobs: CobStoreService) {}

  /** `GET /repos/{rid}/jobs/{sha}`: sorted by job id; `[]` when none (the commit is not checked). */
  async list(ridText: string, sha: Oid): Promise<Job[]> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    return (await snapshot.jobs(sha)).map((job) => toJob(job, aliasOf));
  }
}
