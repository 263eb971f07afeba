/**
 * A few long-lived worker threads for untrusted work, and the hard fence around them: the template
 * renderer (templates/pool.ts) and the action sandbox (actions/pool.ts) are both this pool with their
 * own worker script, messages and failure results.
 *
 * - Each job gets a wall-clock limit once its worker is up (a cold start is the server's cost, not the
 *   job's); past it the worker is terminated, whatever it is doing, and replaced for the next job.
 * - A worker's V8 heap is capped (resourceLimits), so a job that allocates without bound ends its
 *   worker with ERR_WORKER_OUT_OF_MEMORY, not the server.
 * - One job per worker at a time; jobs beyond the workers wait in a bounded queue, and past `queueMax`
 *   `run` rejects with WorkerPoolBusyError (the routes answer 503).
 *
 * Protocol: the worker posts `{type: 'ready'}` once, then for each `jobMessage(id, job)` it may post any
 * number of requests (handled by `onRequest` with the job's context) and ends with
 * `{type: 'done', id, ...result}`.
 */
import { Worker } from 'node:worker_threads'
import { tsWorkerBootScript } from './ts-worker'

/** Why the pool ended a job itself, for the owner's failure result. */
export type PoolFailure =
  /** The pool was closed with the job still waiting. */
  | 'stopping'
  /** The job outlived its wall-clock limit; its worker was killed. */
  | 'timeout'
  /** The worker's heap limit was reached. */
  | 'memory'
  /** The worker exited or threw during the job. */
  | 'crashed'
  /** The worker could not start. */
  | 'start'

export interface WorkerPoolSpec<Job, Result, Ctx> {
  /** The worker's TypeScript module. */
  script: URL
  size: number
  queueMax: number
  heapMb: number
  workerData?: unknown
  /** What is posted to start a job. */
  jobMessage(id: number, job: Job): unknown
  /** The result of a job the pool ended itself. */
  failure(kind: PoolFailure, detail: string): Result
  /** A message from the worker other than ready and done, while job `id` runs with context `ctx`. */
  onRequest?(
    message: { type: string; id?: number },
    ctx: Ctx,
    post: (reply: unknown) => void,
    id: number,
  ): void
  /** The error `run` rejects with when the pool is closed. */
  closedMessage: string
}

export class WorkerPoolBusyError extends Error {}

interface Pending<Job, Result, Ctx> {
  job: Job
  ctx: Ctx
  timeoutMs: number
  resolve: (result: Result) => void
}

interface Slot<Job, Result, Ctx> {
  worker: Worker
  ready: Promise<void>
  current?: { id: number; pending: Pending<Job, Result, Ctx>; timer?: NodeJS.Timeout }
}

export class WorkerPool<Job, Result, Ctx> {
  private readonly slots: Array<Slot<Job, Result, Ctx> | null> = []
  private readonly queue: Array<Pending<Job, Result, Ctx>> = []
  private nextId = 1
  private closed = false

  constructor(private readonly spec: WorkerPoolSpec<Job, Result, Ctx>) {
    for (let i = 0; i < spec.size; i++) this.slots.push(null)
  }

  /** Runs `job` with `ctx` for its requests; the worker is killed `timeoutMs` after the job starts. */
  run(job: Job, ctx: Ctx, timeoutMs: number): Promise<Result> {
    if (this.closed) return Promise.reject(new Error(this.spec.closedMessage))
    if (this.queue.length >= this.spec.queueMax) return Promise.reject(new WorkerPoolBusyError())
    return new Promise((resolve) => {
      this.queue.push({ job, ctx, timeoutMs, resolve })
      this.pump()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const pending of this.queue.splice(0))
      pending.resolve(this.spec.failure('stopping', 'the server is stopping'))
    await Promise.all(
      this.slots.map((slot, i) => {
        this.slots[i] = null
        return slot?.worker.terminate()
      }),
    )
  }

  private pump(): void {
    for (let i = 0; i < this.spec.size && this.queue.length > 0; i++) {
      let slot = this.slots[i]
      if (slot?.current) continue
      if (!slot) {
        slot = this.spawn(i)
        this.slots[i] = slot
      }
      this.start(slot, this.queue.shift()!)
    }
  }

  private start(slot: Slot<Job, Result, Ctx>, pending: Pending<Job, Result, Ctx>): void {
    const id = this.nextId++
    slot.current = { id, pending }
    slot.ready.then(
      () => {
        if (slot.current?.id !== id) return
        slot.current.timer = setTimeout(() => this.kill(slot), pending.timeoutMs)
        slot.worker.postMessage(this.spec.jobMessage(id, pending.job))
      },
      (error: unknown) => this.finish(slot, id, this.spec.failure('start', String(error))),
    )
  }

  private spawn(index: number): Slot<Job, Result, Ctx> {
    const worker = new Worker(tsWorkerBootScript(this.spec.script), {
      eval: true,
      workerData: this.spec.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.spec.heapMb, maxYoungGenerationSizeMb: 32 },
    })
    worker.unref()
    let markReady: () => void = () => {}
    let markFailed: (error: unknown) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve
      markFailed = reject
    })
    ready.catch(() => {})
    const slot: Slot<Job, Result, Ctx> = { worker, ready }
    const post = (reply: unknown) => worker.postMessage(reply)
    worker.on('message', (message: { type: string; id?: number }) => {
      if (message.type === 'ready') return markReady()
      const current = slot.current
      if (!current) return
      if (message.type === 'done') {
        if (message.id !== current.id) return
        const { type: _type, id: _id, ...result } = message
        return this.finish(slot, current.id, result as Result)
      }
      this.spec.onRequest?.(message, current.pending.ctx, post, current.id)
    })
    const died = (error?: unknown) => {
      markFailed(error ?? new Error('the worker stopped'))
      if (this.slots[index] === slot) this.slots[index] = null
      const current = slot.current
      if (!current) return
      const oom = (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
      this.finish(
        slot,
        current.id,
        oom
          ? this.spec.failure('memory', 'out of memory')
          : this.spec.failure('crashed', String(error ?? 'the worker stopped')),
      )
    }
    worker.on('error', died)
    worker.on('exit', () => died())
    return slot
  }

  /** The hard stop: the worker is killed mid-job and a new one is started for the next job. */
  private kill(slot: Slot<Job, Result, Ctx>): void {
    const current = slot.current
    if (!current) return
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots[index] = null
    this.finish(slot, current.id, this.spec.failure('timeout', 'stopped'))
    void slot.worker.terminate()
  }

  private finish(slot: Slot<Job, Result, Ctx>, id: number, result: Result): void {
    const current = slot.current
    if (!current || current.id !== id) return
    if (current.timer) clearTimeout(current.timer)
    slot.current = undefined
    current.pending.resolve(result)
    if (!this.closed) this.pump()
  }
}
