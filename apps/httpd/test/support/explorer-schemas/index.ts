// Runtime schemas of what radicle-explorer's http-client accepts, keyed by route, and the
// response check the e2e HTTP helpers run on every response.
export { explorerRoutes, matchExplorerRoute, type ExplorerRoute, UNPARSED_PATHS } from './routes.js';
export { assertExplorerAccepts, type CheckedResponse, explorerProblems, registerServerFlavour } from './validate.js';
