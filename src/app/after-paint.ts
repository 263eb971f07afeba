/**
 * Start-up work that must happen but need not hold the first paint (issue 20, docs/contributing/performance.md
 * "3. Offline cold start"): the analytics page view (its first sessionStorage read costs tens of ms on
 * a cold tab) and the forms queue's chunk import. Tasks run in the order they were given, in a task
 * after the next frame; a hidden tab gets no frames, so a timeout runs them anyway. Nothing is dropped:
 * a page being left runs what is still waiting at once (pagehide), as it would have run before.
 */

/** A hidden tab never fires requestAnimationFrame; this bounds the wait there. */
export const AFTER_PAINT_FALLBACK_MS = 500

export interface AfterPaintPorts {
  requestFrame(fn: () => void): void
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  onPageHide(fn: () => void): void
}

export function createAfterPaint(ports: AfterPaintPorts): (task: () => void) => void {
  const pending: Array<() => void> = []
  let fallback: unknown = null
  /** Which batch is waiting: a frame or timeout of an earlier batch must not run a later one early. */
  let batch = 0

  const flush = () => {
    if (fallback !== null) ports.clearTimeout(fallback)
    fallback = null
    batch++
    for (const task of pending.splice(0)) {
      try {
        task()
      } catch (e) {
        // One failing task must not keep the others (a page view, the forms queue) from running.
        console.error(e)
      }
    }
  }
  ports.onPageHide(flush)

  return (task) => {
    pending.push(task)
    if (fallback !== null) return
    const mine = batch
    const run = () => {
      if (batch === mine) flush()
    }
    fallback = ports.setTimeout(run, AFTER_PAINT_FALLBACK_MS)
    // The frame callback runs just before the paint; the task it queues runs just after it.
    ports.requestFrame(() => ports.setTimeout(run, 0))
  }
}

let shared: ((task: () => void) => void) | undefined

/** Runs `task` once the browser has painted what the current commit shows. */
export function afterFirstPaint(task: () => void): void {
  shared ??= createAfterPaint({
    requestFrame: (fn) => window.requestAnimationFrame(fn),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    onPageHide: (fn) => window.addEventListener('pagehide', fn),
  })
  shared(task)
}
