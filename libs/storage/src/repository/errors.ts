/**
 * The repository head cannot be determined (docs/node-home.md §3.2–3.3): no project payload, no
 * votes reaching the threshold, or diverging delegate branches. Maps to 500; listings skip
 * such repositories.
 */
export class RepositoryHeadError extends Error {
  readonly code = 'REPO_HEAD_UNRESOLVED';
  constructor(message: string) {
    super(message);
    this.name = 'RepositoryHeadError';
  }
}
