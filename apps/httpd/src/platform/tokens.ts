/**
 * DI token of the opened `NodeHome` (from @forge-httpd/storage): an interface, so it needs a
 * token. The `ServerConfig` class is its own token.
 */
export const NODE_HOME = Symbol('NODE_HOME');
export const GIT_SERVER_LIMITS = Symbol('GIT_SERVER_LIMITS');
/** DI token of what the error filter asks about a repository (RepositoryAccess, kept out of platform's imports). */
export const REPOSITORY_PRESENCE = Symbol('REPOSITORY_PRESENCE');
