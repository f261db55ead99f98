import { AggregatorRegistry, type Registry } from 'prom-client';

/** What the metrics listener reads: one registry, or the sum over the cluster's workers. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

/**
 * In a `--workers` worker: answers the primary's metric requests with `registry` (prom-client
 * counts per process; the primary sums counters and histograms over the workers).
 */
export function shareMetricsWithPrimary(registry: Registry): void {
  // Constructing one installs prom-client's message listener in this worker.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/** In the `--workers` primary: the metrics of every worker, aggregated on each scrape. */
export function clusterMetricsSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}
