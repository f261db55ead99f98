/**
 * A small deterministic generator (xorshift) for property tests, so a failure names its seed.
 * @returns a function giving an integer in [0, below)
 */
export function generator(seed: number): (below: number) => number {
  let state = seed >>> 0 || 1;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}
