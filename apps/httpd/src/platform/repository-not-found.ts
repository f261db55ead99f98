import { NotFoundError } from '@forge-httpd/identity';

/** What an absent or private repository raises: both answer the same 404. */
export function repositoryNotFound(): NotFoundError {
  return new NotFoundError('repository');
}

/** Whether an error says that the repository asked for is absent or private. */
export function isRepositoryNotFound(error: unknown): boolean {
  return error instanceof NotFoundError && error.what === 'repository';
}
