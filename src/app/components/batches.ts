/**
 * Runs many mutations in batches with progress, for imports and bulk deletes. Each batch runs its
 * calls together and waits for them, so the outbox grows in steady steps and the progress bar moves;
 * one failed call does not stop the rest (the result counts them, and the toast says X / Y).
 */
/** Large enough to keep IndexedDB busy, small enough that progress moves several times a second. */
export const BATCH_SIZE = 100

export interface BatchResult {
  done: number
  failed: number
  /** The first error, to show when nothing worked. */
  firstError: unknown
}

export async function runBatches<T>(
  items: readonly T[],
  run: (item: T) => Promise<unknown>,
  onProgress: (settled: number, total: number) => void,
  options: { size?: number; signal?: AbortSignal } = {},
): Promise<BatchResult> {
  const size = options.size ?? BATCH_SIZE
  const result: BatchResult = { done: 0, failed: 0, firstError: null }
  onProgress(0, items.length)
  for (let i = 0; i < items.length; i += size) {
    if (options.signal?.aborted) break
    const settled = await Promise.allSettled(items.slice(i, i + size).map(run))
    for (const s of settled) {
      if (s.status === 'fulfilled') result.done++
      else {
        result.failed++
        result.firstError ??= s.reason
      }
    }
    onProgress(result.done + result.failed, items.length)
  }
  return result
}
