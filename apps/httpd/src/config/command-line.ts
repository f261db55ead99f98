import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/** The flags given on the command line, before environment and defaults are applied. */
export interface CommandLineOptions {
  home?: string;
  listen?: string;
  flavour?: string;
  metricsListen?: string;
  logLevel?: string;
  cacheDir?: string;
  /** `--no-cache-dir`: keep nothing between runs. */
  noCacheDir?: boolean;
  workers?: string;
  memoryBudget?: string;
  /** `--alias NAME=RID`, each as given, in command-line order. */
  aliases?: string[];
}

/** What the command line asks for. */
export type CommandLine = { action: 'serve'; options: CommandLineOptions } | { action: 'help' } | { action: 'version' };

/** The usage text printed by `--help` and after a usage error. */
export const USAGE = `Usage: forge-httpd [--home DIR] [--listen HOST:PORT | UNIX_SOCKET_PATH] [--flavour auto|forge|radicle]
                   [--metrics-listen HOST:PORT] [--log-level LEVEL] [--memory-budget MIB]
                   [--workers N] [--cache-dir DIR | --no-cache-dir] [--alias NAME=RID]...
       forge-httpd --help | --version

Serves a read-only HTTP/JSON API (under /api/v1) over a Radicle-style node home.

Options:
  --home DIR         node home to serve (default: $FORGE_HOME, then $RAD_HOME, then
                     ~/.radicle if it holds a config.json (neither with --flavour forge),
                     else a demo home generated once under ~/.cache/forge-httpd/)
  --listen ADDRESS   HOST:PORT or a Unix socket path (default: $FORGE_LISTEN or 127.0.0.1:8080)
  --flavour NAME     auto (default): read from the home's repositories (a home without any:
                     radicle when found through RAD_HOME or ~/.radicle, else forge);
                     forge or radicle: protocol identifiers xyz.<NAME>.*
  --metrics-listen ADDRESS
                     serve Prometheus metrics (/metrics) and readiness (/readyz) on HOST:PORT
                     or a Unix socket path (default: $FORGE_METRICS_LISTEN, else off)
  --log-level LEVEL  silent, fatal, error, warn, info (default), debug or trace
                     (default: $FORGE_LOG_LEVEL); JSON lines on stderr, readable on a terminal
  --cache-dir DIR    where evaluated issues and patches are kept between runs, so a restart
                     does not re-evaluate them (default: $FORGE_CACHE_DIR, else
                     $XDG_CACHE_HOME/forge-httpd/homes/<home hash>, created with mode 0700;
                     the server still works, slower after a restart, when it is not writable)
  --no-cache-dir     keep nothing between runs
  --workers N        serving processes sharing the listen address, 1 to 64 (default:
                     $FORGE_WORKERS, else 1); each keeps its own caches and git processes
  --memory-budget MIB
                     memory the big caches (rendered answers, branch reachability, history
                     and tree memos) share, in MiB (default: $FORGE_MEMORY_BUDGET, else 64;
                     0 turns them off); half of it again bounds the garbage the heap may
                     hold between full collections, and as much again the answers waiting
                     for slow clients (past it big pages get 503)
  --alias NAME=RID   NAME stands for the RID in /api/v1/repos/NAME/…, /raw/NAME/… and
                     /NAME.git/… (repeatable; 1-64 letters, digits, . _ -, not a RID, not
                     ending in .git); wins over config.json's web.aliases for the same NAME
  -h, --help         print this help and exit
  -V, --version      print the version and exit

Environment:
  FORGE_HOME, RAD_HOME, RAD_SOCKET (control socket, default <home>/node/control.sock), FORGE_LISTEN,
  FORGE_METRICS_LISTEN, FORGE_LOG_LEVEL, FORGE_MEMORY_BUDGET, FORGE_WORKERS, FORGE_CACHE_DIR,
  XDG_CACHE_HOME
`;

/**
 * Parses the command-line arguments (without `node` and the script).
 * @throws UsageError for an unknown flag, a positional argument or a missing value
 */
export function parseCommandLine(args: readonly string[]): CommandLine {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        home: { type: 'string' },
        listen: { type: 'string' },
        flavour: { type: 'string' },
        'metrics-listen': { type: 'string' },
        'log-level': { type: 'string' },
        'cache-dir': { type: 'string' },
        'no-cache-dir': { type: 'boolean' },
        workers: { type: 'string' },
        'memory-budget': { type: 'string' },
        alias: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    }));
  } catch (error) {
    // parseArgs messages name the offending argument only; they carry no paths.
    throw new UsageError(error instanceof Error ? error.message : 'Invalid arguments');
  }
  if (values['help'] === true) return { action: 'help' };
  if (values['version'] === true) return { action: 'version' };
  return { action: 'serve', options: pickStrings(values) };
}

function pickStrings(values: Record<string, string | boolean | string[] | undefined>): CommandLineOptions {
  const options: CommandLineOptions = {};
  for (const key of ['home', 'listen', 'flavour', 'workers'] as const) {
    const value = values[key];
    if (typeof value === 'string') options[key] = value;
  }
  if (typeof values['metrics-listen'] === 'string') options.metricsListen = values['metrics-listen'];
  if (typeof values['log-level'] === 'string') options.logLevel = values['log-level'];
  if (typeof values['memory-budget'] === 'string') options.memoryBudget = values['memory-budget'];
  if (typeof values['cache-dir'] === 'string') options.cacheDir = values['cache-dir'];
  if (values['no-cache-dir'] === true) options.noCacheDir = true;
  const aliases = values['alias'];
  if (Array.isArray(aliases)) options.aliases = aliases;
  return options;
}
