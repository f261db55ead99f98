import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
  validateSync,
  type ValidationError,
} from 'class-validator';
import type { Rid } from '@forge-httpd/identity';
import { FLAVOURS, type Flavour } from '@forge-httpd/storage';
import type { ListenAddress } from './listen-address.js';
import { DEFAULT_MEMORY_BUDGET_MIB } from './memory-budget.js';
import { UsageError } from './usage-error.js';

/** Where the served home came from, for the startup log. */
export type HomeSource = 'flag' | 'FORGE_HOME' | 'RAD_HOME' | 'default' | 'demo';

const HOME_SOURCES: readonly HomeSource[] = ['flag', 'FORGE_HOME', 'RAD_HOME', 'default', 'demo'];
const ABSOLUTE_PATH = /^\//;

class TcpListen {
  readonly kind = 'tcp' as const;
  @IsString() @IsNotEmpty() readonly host: string;
  @IsInt() @Min(0) @Max(65535) readonly port: number;

  constructor(host: string, port: number) {
    this.host = host;
    this.port = port;
  }
}

class UnixListen {
  readonly kind = 'unix' as const;
  // sockaddr_un holds 108 bytes including the terminating NUL.
  @Matches(ABSOLUTE_PATH) @MaxLength(107) readonly path: string;

  constructor(path: string) {
    this.path = path;
  }
}

/** More serving processes than this only share the same cores (and each holds its own caches). */
export const MAX_WORKERS = 64;
const INVALID_WORKERS = `Invalid --workers: expected an integer from 1 to ${MAX_WORKERS}`;

/** The fields a {@link ServerConfig} is made of. */
export interface ServerConfigFields {
  home: string;
  homeSource: HomeSource;
  flavour: string;
  /** Why this flavour serves (forced by the flag, or what `auto` found), for the startup log. */
  flavourReason: string;
  socketPath: string;
  listen: ListenAddress;
  /** Where metrics and readiness are served, or null (off). */
  metricsListen?: ListenAddress | null;
  /** Our own directory for what outlives a run (evaluated COBs), or null (keep nothing). */
  cacheDir?: string | null;
  /** Serving processes (`--workers`); 1 serves in this process. */
  workers?: number;
  /** MiB the big caches share (default {@link DEFAULT_MEMORY_BUDGET_MIB}). */
  memoryBudgetMiB?: number;
  /** `--alias NAME=RID` flags (none when absent). */
  aliases?: ReadonlyMap<string, Rid>;
  version: string;
}

/**
 * The server's whole configuration, resolved once at startup from flags, environment and
 * defaults (see `resolveServerConfig`) and validated by {@link ServerConfig.create}.
 */
export class ServerConfig {
  @Matches(ABSOLUTE_PATH, { message: 'home must be an absolute path' }) readonly home: string;
  @IsIn(HOME_SOURCES) readonly homeSource: HomeSource;
  @IsIn(FLAVOURS, { message: 'Invalid --flavour: expected forge or radicle' })
  readonly flavour: Flavour;
  @IsString() readonly flavourReason: string;
  @Matches(ABSOLUTE_PATH, { message: 'socket path must be absolute' }) readonly socketPath: string;
  @ValidateNested() readonly listen: ListenAddress;
  @ValidateIf((config: ServerConfig) => config.metricsListen !== null) @ValidateNested() readonly metricsListen: ListenAddress | null;
  @ValidateIf((config: ServerConfig) => config.cacheDir !== null)
  @Matches(ABSOLUTE_PATH, { message: 'cache directory must be an absolute path' })
  readonly cacheDir: string | null;
  @IsInt({ message: INVALID_WORKERS })
  @Min(1, { message: INVALID_WORKERS })
  @Max(MAX_WORKERS, { message: INVALID_WORKERS })
  readonly workers: number;
  @IsInt({ message: 'Invalid --memory-budget: expected a whole number of MiB' })
  @Min(0, { message: 'Invalid --memory-budget: expected a whole number of MiB' })
  readonly memoryBudgetMiB: number;
  /** Repository aliases given as flags; they win over config.json's `web.aliases` for the same name. */
  readonly aliases: ReadonlyMap<string, Rid>;
  @IsString() @IsNotEmpty() readonly version: string;

  private constructor(fields: ServerConfigFields) {
    this.home = fields.home;
    this.homeSource = fields.homeSource;
    this.flavour = fields.flavour as Flavour;
    this.flavourReason = fields.flavourReason;
    this.socketPath = fields.socketPath;
    this.listen = toListen(fields.listen);
    this.metricsListen = fields.metricsListen ? toListen(fields.metricsListen) : null;
    this.cacheDir = fields.cacheDir ?? null;
    this.workers = fields.workers ?? 1;
    this.memoryBudgetMiB = fields.memoryBudgetMiB ?? DEFAULT_MEMORY_BUDGET_MIB;
    this.aliases = fields.aliases ?? new Map();
    this.version = fields.version;
  }

  /**
   * Builds and validates a configuration.
   * @throws UsageError listing every constraint that failed
   */
  static create(fields: ServerConfigFields): ServerConfig {
    const config = new ServerConfig(fields);
    const errors = validateSync(config, { forbidUnknownValues: true });
    // One message per problem: a field failing several constraints may say the same thing each time.
    if (errors.length > 0) throw new UsageError([...new Set(describeErrors(errors))].join('; '));
    return config;
  }
}

function toListen(address: ListenAddress): ListenAddress {
  return address.kind === 'tcp' ? new TcpListen(address.host, address.port) : new UnixListen(address.path);
}

function describeErrors(errors: readonly ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => [
    ...Object.values(error.constraints ?? {}).map((text) => `${prefix}${text}`),
    ...describeErrors(error.children ?? [], `${prefix}${error.property}.`),
  ]);
}
