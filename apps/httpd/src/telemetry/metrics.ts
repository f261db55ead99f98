import type { GitServerPool, NodeHome } from '@forge-httpd/storage';
import { readGitProcessCounts } from '@forge-httpd/storage';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CobEvaluations } from '../cobs/cob-evaluations.js';
import type { CobRejectionLog } from '../cobs/cob-rejection-log.js';
import type { CobStoreService } from '../cobs/cob-store.service.js';
import type { FreeMemoryRelease } from '../platform/free-memory-release.js';
import type { HeapHeadroom } from '../platform/heap-headroom.js';
import type { SendStallGuard } from '../platform/send-stall-guard.js';
import type { YoungGenerationCap } from '../platform/young-generation-cap.js';
import type { HttpCaching } from '../response-cache/http-caching.js';
import type { Readiness } from './readiness.js';
import type { RequestObserver } from './request-observer.js';
import type { RequestRecord } from './request-record.js';

/** Where the metrics are read from: plain counters of the app and the libraries. */
export interface MetricSources {
  requests: RequestObserver;
  httpCaching: HttpCaching;
  home: NodeHome;
  gitServers: GitServerPool;
  cobEvaluations: CobEvaluations;
  cobRejections: CobRejectionLog;
  /** The repositories' COB stores and their share of the memory budget. */
  cobStores: Pick<CobStoreService, 'stats'>;
  readiness: Readiness;
  /** Connections closed because their client stopped reading. */
  sendStalls?: Pick<SendStallGuard, 'stalledConnections' | 'unsentBytes'>;
  /** The heap growth governor, when the process runs one. */
  heapHeadroom?: HeapHeadroom;
  /** The young generation bound, when the process runs one. */
  youngGeneration?: YoungGenerationCap;
  /** Releases of malloc's free memory, when the process makes them. */
  freeMemoryRelease?: FreeMemoryReleaseTotals;
}

/** What the metrics read of the releases of malloc's free memory. */
type FreeMemoryReleaseTotals = Pick<FreeMemoryRelease, 'releaseCount' | 'releasedBytes' | 'releaseMilliseconds'>;

/** Request latency buckets, in seconds: cached answers take well under a millisecond. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const COB_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/**
 * Builds the Prometheus registry (prom-client): requests by route pattern and status, the
 * response cache, git processes, the storage index, COB evaluations and dropped changes, and
 * prom-client's process metrics (event-loop lag, heap, RSS, CPU). Values kept by the app and
 * the libraries are read at scrape time; only requests and evaluations are counted as they
 * happen.
 */
export function createMetricsRegistry(sources: MetricSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'forge_' });
  countRequests(registry, sources.requests);
  if (sources.sendStalls !== undefined) countSendStalls(registry, sources.sendStalls);
  readResponseCache(registry, sources.httpCaching);
  readGitProcesses(registry, sources.gitServers);
  readStorageIndex(registry, sources);
  countCobs(registry, sources);
  if (sources.heapHeadroom !== undefined) readHeapHeadroom(registry, sources.heapHeadroom);
  if (sources.youngGeneration !== undefined) readYoungGeneration(registry, sources.youngGeneration);
  if (sources.freeMemoryRelease !== undefined) countFreeMemoryReleases(registry, sources.freeMemoryRelease);
  return registry;
}

function countRequests(registry: Registry, requests: RequestObserver): void {
  const labelNames = ['method', 'route', 'status'] as const;
  const total = new Counter({ name: 'forge_http_requests_total', help: 'Finished HTTP requests', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'forge_http_request_duration_seconds',
    help: 'Time from request to the end of the answer',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const bytes = new Counter({ name: 'forge_http_response_bytes_total', help: 'Response body bytes sent', labelNames: ['route'], registers: [registry] });
  // Labelled children looked up once per distinct label set: the hot path is a Map lookup.
  const children = new Map<string, { total: Counter.Internal; latency: Histogram.Internal<'method' | 'route' | 'status'>; bytes: Counter.Internal }>();
  requests.listen((record: RequestRecord) => {
    const key = `${record.method} ${record.status} ${record.route}`;
    let child = children.get(key);
    if (child === undefined) {
      const labels = { method: record.method, route: record.route, status: String(record.status) };
      child = { total: total.labels(labels), latency: latency.labels(labels), bytes: bytes.labels({ route: record.route }) };
      children.set(key, child);
    }
    child.total.inc();
    child.latency.observe(record.durationMs / 1000);
    if (record.bytes !== null && record.bytes > 0) child.bytes.inc(record.bytes);
  });
}

function countSendStalls(registry: Registry, guard: Pick<SendStallGuard, 'stalledConnections' | 'unsentBytes'>): void {
  new Gauge({
    name: 'forge_http_unsent_bytes',
    help: 'Bytes of answers written and not yet taken by their clients, over every connection; past the memory budget big pages get 503',
    registers: [registry],
    collect: readGauge(() => guard.unsentBytes),
  });
  new Counter({
    name: 'forge_http_send_stalls_total',
    help: 'Connections closed because their client took no byte of an answer for the send timeout',
    registers: [registry],
    collect: readCounter(() => guard.stalledConnections),
  });
}

function readResponseCache(registry: Registry, caching: HttpCaching): void {
  const read = (pick: (stats: ReturnType<HttpCaching['stats']>) => number) =>
    function (this: Gauge | Counter) {
      const value = pick(caching.stats());
      if (this instanceof Counter) {
        this.reset();
        this.inc(value);
      } else this.set(value);
    };
  new Counter({ name: 'forge_response_cache_hits_total', help: 'Answers served from the response cache', registers: [registry], collect: read((s) => s.hits) });
  new Counter({
    name: 'forge_response_cache_front_hits_total',
    help: 'Cache hits answered before routing',
    registers: [registry],
    collect: read((s) => s.frontHits),
  });
  new Counter({
    name: 'forge_response_cache_misses_total',
    help: 'Cacheable requests that ran their handler',
    registers: [registry],
    collect: read((s) => s.misses),
  });
  new Counter({
    name: 'forge_response_cache_evictions_total',
    help: 'Entries evicted to stay under the byte bound',
    registers: [registry],
    collect: read((s) => s.evictions),
  });
  new Counter({
    name: 'forge_response_cache_deferred_total',
    help: 'Answers not kept: the cache was past half its bound and their URL had not been rendered before',
    registers: [registry],
    collect: read((s) => s.deferred),
  });
  new Gauge({ name: 'forge_response_cache_entries', help: 'Answers held', registers: [registry], collect: read((s) => s.entries) });
  new Gauge({
    name: 'forge_response_cache_bytes',
    help: 'Bytes held (bodies, compressed variants, keys)',
    registers: [registry],
    collect: read((s) => s.bytes),
  });
  new Gauge({ name: 'forge_response_cache_max_bytes', help: 'Byte bound of the response cache', registers: [registry], collect: read((s) => s.maxBytes) });
  new Counter({
    name: 'forge_compressed_bodies_hits_total',
    help: 'Answers built again sent with a kept compressed body (looked up by ETag)',
    registers: [registry],
    collect: readCounter(() => caching.compressedBodyStats().hits),
  });
  new Gauge({
    name: 'forge_compressed_bodies_bytes',
    help: 'Compressed bodies kept of answers built again',
    registers: [registry],
    collect: readGauge(() => caching.compressedBodyStats().bytes),
  });
}

function readGitProcesses(registry: Registry, pool: GitServerPool): void {
  new Gauge({
    name: 'forge_git_processes_running',
    help: 'git processes running, by kind (cat-file readers, short-lived commands, upload-pack/archive servers)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      for (const [kind, count] of Object.entries(readGitProcessCounts())) this.set({ kind }, count.running);
    },
  });
  new Counter({
    name: 'forge_git_processes_spawned_total',
    help: 'git processes started, by kind',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, count] of Object.entries(readGitProcessCounts())) this.inc({ kind }, count.spawned);
    },
  });
  new Gauge({
    name: 'forge_git_server_slots_free',
    help: 'Free slots of the clone/archive process pool (0: the next clone gets 503)',
    registers: [registry],
    collect() {
      this.set(Math.max(0, pool.capacity - pool.running));
    },
  });
}

function readStorageIndex(registry: Registry, sources: MetricSources): void {
  const index = sources.home.storageIndex;
  new Gauge({
    name: 'forge_storage_index_repositories',
    help: 'Repositories in the storage index',
    registers: [registry],
    collect() {
      this.set(index.stats().repositories);
    },
  });
  new Gauge({
    name: 'forge_storage_index_freshness_lag_seconds',
    help: 'Time since every indexed repository was last confirmed against storage (-1 before the first build)',
    registers: [registry],
    collect() {
      const at = index.stats().confirmedAt;
      this.set(at === null ? -1 : (Date.now() - at) / 1000);
    },
  });
  new Gauge({
    name: 'forge_open_repositories',
    help: 'Repositories kept open (least recently opened forgotten past 1,024; with --workers, summed)',
    registers: [registry],
    collect: readGauge(() => sources.home.storage.openRepositories),
  });
  new Gauge({
    name: 'forge_held_commit_id_bytes',
    help: 'Bytes of commit ids held by answers written as they are read (long ranges and listings); past the memory budget share they get 503',
    registers: [registry],
    collect: readGauge(() => sources.home.storage.heldCommitIdBytes),
  });
  new Gauge({
    name: 'forge_ready',
    help: '1 when /readyz answers 200',
    registers: [registry],
    collect() {
      this.set(sources.readiness.state === 'ready' ? 1 : 0);
    },
  });
}

function countCobs(registry: Registry, sources: MetricSources): void {
  const evaluations = new Histogram({
    name: 'forge_cob_evaluation_seconds',
    help: 'Collaborative-object evaluations from their changes (cache reuses not counted), by COB type',
    labelNames: ['type'],
    buckets: COB_BUCKETS,
    registers: [registry],
  });
  sources.cobEvaluations.listen((evaluation) => evaluations.observe({ type: evaluation.typeName }, evaluation.durationMs / 1000));
  const stores = (): ReturnType<CobStoreService['stats']> => sources.cobStores.stats();
  new Gauge({ name: 'forge_cob_stores', help: 'Repositories whose evaluated COBs are kept', registers: [registry], collect: readGauge(() => stores().stores) });
  new Gauge({
    name: 'forge_cob_store_bytes',
    help: 'Estimated bytes of the kept COB stores (evaluated objects and ref indexes)',
    registers: [registry],
    collect: readGauge(() => stores().bytes),
  });
  new Gauge({
    name: 'forge_cob_store_max_bytes',
    help: 'Share of --memory-budget the COB stores are kept within (with --workers, summed)',
    registers: [registry],
    collect: readGauge(() => stores().maxBytes),
  });
  new Counter({
    name: 'forge_cob_dropped_changes_total',
    help: 'Changes dropped while evaluating (the rejected change and its descendants), by COB type and reason',
    labelNames: ['type', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const count of sources.cobRejections.snapshot()) this.inc({ type: count.typeName, reason: count.reason }, count.changes);
    },
  });
}

function readHeapHeadroom(registry: Registry, headroom: HeapHeadroom): void {
  new Gauge({
    name: 'forge_heap_headroom_bytes',
    help: 'Garbage the JS heap may hold between full collections (from --memory-budget; with --workers, summed)',
    registers: [registry],
    collect() {
      this.set(headroom.headroomBytes);
    },
  });
  new Gauge({
    name: 'forge_heap_growing_percent',
    help: 'Heap growth asked of V8 after the last full collection (0: left to V8; with --workers, the largest)',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(headroom.growingPercent);
    },
  });
  new Gauge({
    name: 'forge_heap_live_bytes',
    help: 'Heap in use when the growth was last set (just after a full collection)',
    registers: [registry],
    collect() {
      this.set(headroom.liveBytes);
    },
  });
}

function countFreeMemoryReleases(registry: Registry, release: FreeMemoryReleaseTotals): void {
  new Counter({
    name: 'forge_memory_releases_total',
    help: "Times malloc's free memory was handed back to the kernel (malloc_trim, after the resident size moved)",
    registers: [registry],
    collect: readCounter(() => release.releaseCount),
  });
  new Counter({
    name: 'forge_memory_released_bytes_total',
    help: 'Resident bytes those releases took off, measured around each',
    registers: [registry],
    collect: readCounter(() => release.releasedBytes),
  });
  new Counter({
    name: 'forge_memory_release_seconds_total',
    help: "Wall time of those releases on libuv's thread pool (malloc's other callers wait for its locks meanwhile)",
    registers: [registry],
    collect: readCounter(() => release.releaseMilliseconds / 1000),
  });
}

function readYoungGeneration(registry: Registry, youngGeneration: YoungGenerationCap): void {
  new Gauge({
    name: 'forge_heap_young_generation_bytes',
    help: "Size of the JS heap's young generation at the last collection (with --workers, summed)",
    registers: [registry],
    collect: readGauge(() => youngGeneration.sizeBytes),
  });
  new Gauge({
    name: 'forge_heap_young_generation_max_bytes',
    help: 'Largest young generation allowed (from --memory-budget; with --workers, summed)',
    registers: [registry],
    collect: readGauge(() => youngGeneration.capBytes),
  });
}

/** A gauge's `collect` that sets the value read at scrape time. */
function readGauge(value: () => number): (this: Gauge) => void {
  return function collect(this: Gauge) {
    this.set(value());
  };
}

/** A counter's `collect` showing a running total its source keeps (counted there, read here). */
function readCounter(value: () => number): (this: Counter) => void {
  return function collect(this: Counter) {
    this.reset();
    this.inc(value());
  };
}
