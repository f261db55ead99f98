import { parseArgs } from 'node:util';
import { InvalidInputError } from '@forge-httpd/identity';
import { isFlavour, type Flavour } from '@forge-httpd/storage';
import { buildDemoHome } from './demo-home.js';
import { runGit } from './git-cli.js';
import { initRepository } from './init-repository.js';
import { createNodeHome } from './node-home.js';
import { openHomeContext } from './open-home.js';
import { seedFromHex } from './seeds.js';

/** Usage text of the builder CLI. */
const USAGE = `Usage: forge-node-home <command> [options]

Commands:
  init    --home DIR --seed HEX --alias A [--flavour forge|radicle] [--time SECONDS]
          Create a node home like \`rad auth\` (keys, config.json, databases).
  import  --home DIR --from GITDIR --name N [--description D] [--default-branch B]
          [--private] [--flavour F] [--time SECONDS]
          Initialise a repository from an existing git repository like \`rad init\`.
  demo    --home DIR [--flavour F]
          Write the demo node home (several repositories, peers, policies).

Times default to now; pass --time (seconds since the epoch) for reproducible ids.
The flavour defaults to forge; use radicle for heartwood-compatible ids.`;

const OPTIONS = {
  home: { type: 'string' },
  seed: { type: 'string' },
  alias: { type: 'string' },
  flavour: { type: 'string' },
  time: { type: 'string' },
  from: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  'default-branch': { type: 'string' },
  private: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** Where the CLI writes. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Runs the builder CLI.
 * @param argv - arguments after the script name
 * @param output - stdout/stderr sinks
 * @returns the exit code (0 ok, 1 failure, 2 usage error)
 */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    output.err(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help === true || command === undefined || command === 'help') {
    output.out(`${USAGE}\n`);
    return command === undefined && parsed.values.help !== true ? 2 : 0;
  }
  try {
    if (rest.length > 0) throw new InvalidInputError(`unexpected argument: ${rest[0] ?? ''}`);
    const summary = await runCommand(command, parsed.values);
    output.out(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  } catch (error) {
    output.err(`error: ${(error as Error).message}\n`);
    if (error instanceof InvalidInputError) output.err(`\n${USAGE}\n`);
    return error instanceof InvalidInputError ? 2 : 1;
  }
}

async function runCommand(command: string, values: Values): Promise<unknown> {
  const flavour = flavourOf(values.flavour);
  const home = required(values.home, '--home');
  const time = values.time === undefined ? Math.floor(Date.now() / 1000) : integerOf(values.time);
  switch (command) {
    case 'init': {
      const seed = seedFromHex(required(values.seed, '--seed'));
      const context = await createNodeHome({ home, seed, alias: required(values.alias, '--alias'), flavour, time });
      return { home: context.home, nid: context.local.keyPair.nid, alias: context.local.alias };
    }
    case 'import':
      return importCommand({ home, flavour, time, values });
    case 'demo': {
      const built = await buildDemoHome(home, { flavour });
      return { home: built.home, nid: built.nid, repos: built.repos.map((repo) => ({ name: repo.name, rid: repo.rid })) };
    }
    default:
      throw new InvalidInputError(`unknown command: ${command}`);
  }
}

async function importCommand(input: { home: string; flavour: Flavour; time: number; values: Values }): Promise<unknown> {
  const { values } = input;
  const from = required(values.from, '--from');
  const context = await openHomeContext({ home: input.home, flavour: input.flavour, time: input.time });
  const defaultBranch = values['default-branch'] ?? (await currentBranch(from)) ?? 'main';
  const repo = await initRepository(context, {
    name: required(values.name, '--name'),
    description: values.description,
    defaultBranch,
    history: { kind: 'import', from },
    private: values.private === true,
  });
  return { rid: repo.rid, name: repo.name, defaultBranch, head: repo.head, gitDir: repo.gitDir };
}

async function currentBranch(from: string): Promise<string | null> {
  // Run inside `from` so both a working tree and a bare git dir are found.
  const out = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: from, okExitCodes: [0, 1, 128] });
  return out.trim() === '' ? null : out.trim();
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new InvalidInputError(`missing ${name}`);
  return value;
}

function flavourOf(value: string | undefined): Flavour {
  if (value === undefined) return 'forge';
  if (!isFlavour(value)) throw new InvalidInputError(`--flavour must be forge or radicle`);
  return value;
}

function integerOf(value: string): number {
  if (!/^[0-9]{1,12}$/.test(value)) throw new InvalidInputError('--time must be an integer number of seconds');
  return Number(value);
}
