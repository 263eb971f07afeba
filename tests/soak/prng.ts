/** The soak's only source of chance: a seeded PRNG (mulberry32), so SOAK_SEED replays a run's choices. */
export interface Rand {
  (): number
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  chance(p: number): boolean
}

export function prng(seed: number): Rand {
  let a = seed >>> 0
  const next = (() => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }) as Rand
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1))
  next.pick = (items) => items[Math.floor(next() * items.length)]!
  next.chance = (p) => next() < p
  return next
}

/**
 * One stream per actor (each writer, the API script, the fault loop), all derived from the run's seed:
 * with a single shared stream the draws went to whichever actor asked first, so the same seed gave
 * another fault sequence as soon as the timing differed, and a failing seed did not replay its faults.
 */
export function fork(seed: number, label: string): Rand {
  let h = seed >>> 0
  for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
  return prng(h)
}

/** The seed of this run: SOAK_SEED, or a fresh one (printed, so a failing run can be replayed). */
export const soakSeed = (): number =>
  process.env.SOAK_SEED ? Number(process.env.SOAK_SEED) : Math.floor(Math.random() * 2 ** 31)
