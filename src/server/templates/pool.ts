/**
 * A few long-lived render workers (render-worker.ts) and the hard fence around them: each job gets
 * TEMPLATE_TIMEOUT_MS of worker time, after which the worker is terminated — whatever it is doing,
 * even inside one filter call — and replaced on the next job. A worker's heap is capped too
 * (resourceLimits), so a template that allocates without bound kills its worker, not the server.
 * Jobs beyond the workers wait in a bounded queue; past TEMPLATE_QUEUE_MAX the caller gets 'busy'.
 */
import { Worker } from 'node:worker_threads'
import { tsWorkerBootScript } from '../ts-worker'
import type { FromWorker, Job, JobResult, LookupDir, ToWorker } from './protocol'

/** Workers rendering at once; the machine's other work needs the remaining cores. */
export const TEMPLATE_WORKERS = 2
/** Jobs that may wait for a worker before new ones are refused (503). */
export const TEMPLATE_QUEUE_MAX = 64
/** Hard limit of one job's worker time (parse + render of every part), in ms. */
export const TEMPLATE_TIMEOUT_MS = 3000
/** LiquidJS's own, cooperative limits, checked first so most runaways end with a precise error. */
export const TEMPLATE_LIMITS = {
  /** Characters parsed in one parse() call: a part, or one layout or partial. */
  parseLimit: 256 * 1024,
  /** ms of render time per part. */
  renderLimit: 1500,
  /** Roughly: characters and array items LiquidJS may allocate per render. */
  memoryLimit: 32 * 1024 * 1024,
} as const
/** Heap of a render worker, in MB; exceeding it ends the worker (ERR_WORKER_OUT_OF_MEMORY). */
const WORKER_HEAP_MB = 128

export type Lookup = (dir: LookupDir, name: string) => Promise<string | null>

export class PoolBusyError extends Error {}

interface Pending {
  job: Omit<Job, 'id' | 'type'>
  lookup: Lookup
  timeoutMs: number
  resolve: (result: JobResult) => void
}

interface Slot {
  worker: Worker
  ready: Promise<void>
  current?: { id: number; pending: Pending; timer?: NodeJS.Timeout }
}

export class RenderPool {
  private readonly slots: Array<Slot | null> = []
  private readonly queue: Pending[] = []
  private nextId = 1
  private closed = false

  constructor(
    private readonly size = TEMPLATE_WORKERS,
    private readonly timeoutMs = TEMPLATE_TIMEOUT_MS,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(null)
  }

  /** `timeoutMs` overrides the pool's hard limit for this job (tests of the fence itself). */
  run(job: Omit<Job, 'id' | 'type'>, lookup: Lookup, timeoutMs = this.timeoutMs): Promise<JobResult> {
    if (this.closed) return Promise.reject(new Error('the template renderer is closed'))
    if (this.queue.length >= TEMPLATE_QUEUE_MAX) return Promise.reject(new PoolBusyError())
    return new Promise((resolve) => {
      this.queue.push({ job, lookup, timeoutMs, resolve })
      this.pump()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const pending of this.queue.splice(0))
      pending.resolve({ ok: false, failure: { kind: 'render', detail: 'the server is stopping' } })
    await Promise.all(
      this.slots.map((slot, i) => {
        this.slots[i] = null
        return slot?.worker.terminate()
      }),
    )
  }

  private pump(): void {
    for (let i = 0; i < this.size && this.queue.length > 0; i++) {
      let slot = this.slots[i]
      if (slot?.current) continue
      if (!slot) {
        slot = this.spawn(i)
        this.slots[i] = slot
      }
      const pending = this.queue.shift()!
      this.start(slot, pending)
    }
  }

  private start(slot: Slot, pending: Pending): void {
    const id = this.nextId++
    slot.current = { id, pending }
    // The clock starts once the worker is up: a cold start is the server's cost, not the template's.
    slot.ready.then(
      () => {
        if (slot.current?.id !== id) return
        slot.current.timer = setTimeout(() => this.stop(slot, 'time'), pending.timeoutMs)
        slot.worker.postMessage({ type: 'job', id, ...pending.job } satisfies ToWorker)
      },
      (error: unknown) =>
        this.finish(slot, id, { ok: false, failure: { kind: 'render', detail: String(error) } }),
    )
  }

  private spawn(index: number): Slot {
    const worker = new Worker(tsWorkerBootScript(new URL('./render-worker.ts', import.meta.url)), {
      eval: true,
      workerData: TEMPLATE_LIMITS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    })
    worker.unref()
    let markReady: () => void = () => {}
    let markFailed: (error: unknown) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve
      markFailed = reject
    })
    const slot: Slot = { worker, ready }
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') return markReady()
      const current = slot.current
      if (!current) return
      if (message.type === 'lookup') {
        current.pending.lookup(message.dir, message.name).then(
          (source) =>
            worker.postMessage({ type: 'file', request: message.request, source } satisfies ToWorker),
          () =>
            worker.postMessage({ type: 'file', request: message.request, source: null } satisfies ToWorker),
        )
        return
      }
      if (message.id !== current.id) return
      const { type: _type, id: _id, ...result } = message
      this.finish(slot, current.id, result as JobResult)
    })
    const died = (error?: unknown) => {
      markFailed(error ?? new Error('the render worker stopped'))
      if (this.slots[index] === slot) this.slots[index] = null
      const current = slot.current
      if (current) {
        const oom = (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
        this.finish(slot, current.id, {
          ok: false,
          failure: oom
            ? { kind: 'memory', detail: 'out of memory', part: undefined }
            : { kind: 'render', detail: String(error ?? 'the render worker stopped') },
        })
      }
    }
    worker.on('error', died)
    worker.on('exit', () => died())
    return slot
  }

  /** The hard stop: the worker is killed mid-job and a new one is started for the next job. */
  private stop(slot: Slot, kind: 'time'): void {
    const current = slot.current
    if (!current) return
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots[index] = null
    this.finish(slot, current.id, { ok: false, failure: { kind, detail: 'stopped' } })
    void slot.worker.terminate()
  }

  private finish(slot: Slot, id: number, result: JobResult): void {
    const current = slot.current
    if (!current || current.id !== id) return
    if (current.timer) clearTimeout(current.timer)
    slot.current = undefined
    current.pending.resolve(result)
    if (!this.closed) this.pump()
  }
}
