/** The source of randomness for everything that is not a composition root. */
export interface Random {
  /** A float in [0, 1). */
  float(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** A random version-4 UUID string. */
  uuid(): string;
}

/** `Math.random` and `crypto.randomUUID`. */
export const systemRandom: Random = {
  float: () => Math.random(),
  int: (n) => Math.floor(Math.random() * n),
  uuid: () => globalThis.crypto.randomUUID(),
};

/** A deterministic generator (mulberry32) for tests and benchmarks. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join("");
  return {
    float: next,
    int: (n) => Math.floor(next() * n),
    uuid: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`,
  };
}
