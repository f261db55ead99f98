import { Inject, Injectable } from '@nestjs/common';
import type { Commit } from '@forge-httpd/api-types';
import type { Rid } from '@forge-httpd/identity';
import type { NodeHome } from '@forge-httpd/storage';
import { type AliasLookup, CobStoreService } from '../cobs/cob-store.service.js';
import { CommitsService } from '../commits/commits.service.js';
import type { BinaryAnswer } from '../platform/binary-answer.js';
import { computeEtag } from '../platform/etag.js';
import { NODE_HOME } from '../platform/tokens.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { ATOM_CONTENT_TYPE, type AtomEntry, type AtomFeed, renderAtomFeed } from './atom.mapper.js';
import { issueActivity, latestByActivity, patchActivity } from './feed-activity.js';

/** Entries of each feed (docs/api.md "Feeds"). */
const FEED_ENTRIES = 50;
/** Characters of an entry's summary at most (a commit's description, an issue's body, a revision's description). */
const SUMMARY_MAX_CHARS = 1000;

/** The three feeds of a repository. */
export type FeedKind = 'commits' | 'issues' | 'patches';

/**
 * Atom feeds of a public repository (docs/api.md "Feeds"): the newest commits of the default
 * branch, and the issues and patches with the latest activity, each entry linking to its API
 * URL under `origin`. Answers carry a strong ETag of their bytes, revalidated like
 * `/repos/{rid}` (no Cache-Control).
 */
@Injectable()
export class FeedsService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly commits: CommitsService,
    private readonly cobs: CobStoreService,
    @Inject(NODE_HOME) private readonly home: NodeHome,
  ) {}

  /**
   * The feed `kind` of the repository `{rid}`.
   * @param origin - `scheme://host` the links start with, or `''` for links relative to the server
   * @throws InvalidInputError (400) / NotFoundError (404) for a malformed, absent or private `{rid}`
   */
  async feed(ridText: string, kind: FeedKind, origin: string): Promise<BinaryAnswer> {
    const repository = await this.access.openPublic(ridText);
    const rid = repository.rid;
    const name = this.home.storageIndex.get(rid)?.project?.name ?? rid;
    const api = `${origin}/api/v1/repos/${rid}`;
    const entries = kind === 'commits' ? await this.commitEntries(ridText, api) : await this.cobEntries(ridText, kind, api);
    const feed: AtomFeed = { id: `${rid}/feeds/${kind}`, title: `${name}: ${kind}`, self: `${api}/feeds/${kind}.atom`, author: name, entries };
    const body = Buffer.from(renderAtomFeed(feed), 'utf8');
    return { headers: { 'content-type': ATOM_CONTENT_TYPE }, body, etag: await computeEtag(body) };
  }

  private async commitEntries(ridText: string, api: string): Promise<AtomEntry[]> {
    const listed = await this.commits.listCommits(ridText, { perPage: FEED_ENTRIES });
    const commits: readonly Commit[] = Array.isArray(listed) ? listed : [];
    return commits.map((commit) => ({
      id: `${ridOf(api)}/commits/${commit.id}`,
      title: commit.summary,
      updated: commit.committer.time,
      author: { name: commit.author.name, email: commit.author.email },
      link: `${api}/commits/${commit.id}`,
      summary: cut(commit.description),
    }));
  }

  private async cobEntries(ridText: string, kind: 'issues' | 'patches', api: string): Promise<AtomEntry[]> {
    const { snapshot, aliasOf } = await this.cobs.open(ridText);
    const entry = (object: { id: string; title: string; author: string }, updated: number, summary: string): AtomEntry => ({
      id: `${ridOf(api)}/${kind}/${object.id}`,
      title: object.title,
      updated,
      author: { name: authorName(aliasOf, object.author) },
      link: `${api}/${kind}/${object.id}`,
      summary: cut(summary),
    });
    if (kind === 'issues') {
      return latestByActivity(await snapshot.issues('all'), issueActivity, FEED_ENTRIES).map(({ item, updated }) =>
        entry(item, updated, item.discussion[0]?.body ?? ''),
      );
    }
    return latestByActivity(await snapshot.patches('all'), patchActivity, FEED_ENTRIES).map(({ item, updated }) =>
      entry(item, updated, item.revisions[0]?.description ?? ''),
    );
  }
}

/** The `rad:z…` of an API URL built above: entry ids never depend on the host. */
function ridOf(api: string): Rid {
  return api.slice(api.lastIndexOf('/') + 1) as Rid;
}

/** An author's alias when the node knows one, else their DID. */
function authorName(aliasOf: AliasLookup, nid: string): string {
  return aliasOf(nid as Parameters<AliasLookup>[0]) ?? `did:key:${nid}`;
}

function cut(text: string): string {
  return text.length <= SUMMARY_MAX_CHARS ? text : `${text.slice(0, SUMMARY_MAX_CHARS)}…`;
}
