/** Timing helpers of the separate COB benchmarks (`cob-startup.ts`, `cob-change.ts`). */

/**
 * GETs `url` with `fetch` and reads the whole body.
 * @param digits - decimals the time is rounded to
 * @returns the time in ms and the body's bytes
 * @throws when the answer is not 200
 */
export async function timeGet(url: string, digits = 0): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const scale = 10 ** digits;
  return { ms: Math.round((performance.now() - started) * scale) / scale, bytes: body.byteLength };
}

/** The upper middle value of a list (its median for an odd length; `git-baseline.ts`' `median` averages the two middles); 0 for an empty one. */
export function upperMedian(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
