/**
 * One unlabelled series of the server's metrics listener (`/metrics`), NaN when absent.
 * @param metricsUrl - `TestServer.metricsUrl`
 * @param name - the series, e.g. `forge_http_unsent_bytes`
 */
export async function metricValue(metricsUrl: string | null, name: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
}

/**
 * Polls a series until `holds` accepts its value (every 20 ms, at most `timeoutMs`): how a test
 * waits for the server to let something go. Returns the last value read; the caller asserts.
 */
export async function waitForMetric(metricsUrl: string | null, name: string, holds: (value: number) => boolean, timeoutMs = 5000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await metricValue(metricsUrl, name);
    if (holds(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
