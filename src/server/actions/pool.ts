/**
 * A few long-lived sandbox workers (worker.ts) and the second fence around them, on the pattern of
 * templates/pool.ts: QuickJS interrupts a script at its deadline, and should that ever fail (a host
 * call that never returns, a bug in the interpreter) the worker is terminated KILL_MARGIN_MS later
 * and replaced. The worker's V8 heap is capped too, beyond QuickJS's own memory limit.
 * Jobs beyond the workers wait in a bounded queue; past ACTION_QUEUE_MAX the caller gets 'busy'.
 */
import { Worker } from 'node:worker_threads'
import { ACTION_LIMITS } from '../../shared/actions'
import { tsWorkerBootScript } from '../ts-worker'
import type { FromWorker, HostOp, SandboxJob, SandboxResult, ToWorker } from './protocol'

export const ACTION_WORKERS = 2
export const ACTION_QUEUE_MAX = 64
/** Wall-clock time past the job's own limit before the worker is killed. */
export const KILL_MARGIN_MS = 1000
const WORKER_HEAP_MB = 192

/** What the host does for the job: answers db and fetch calls and keeps log lines. */
export interface JobHost {
  db(op: HostOp, args: unknown[]): Promise<unknown>
  log(line: string): void
}

export class ActionPoolBusyError extends Error {}

interface Pending {
  job: SandboxJob
  host: JobHost
  resolve: (result: SandboxResult) => void
}

interface Slot {
  worker: Worker
  ready: Promise<void>
  current?: { id: number; pending: Pending; timer?: NodeJS.Timeout }
}

export class ActionPool {
  private readonly slots: Array<Slot | null> = []
  private readonly queue: Pending[] = []
  private nextId = 1
  private closed = false

  constructor(private readonly size = ACTION_WORKERS) {
    for (let i = 0; i < size; i++) this.slots.push(null)
  }

  run(job: SandboxJob, host: JobHost): Promise<SandboxResult> {
    if (this.closed) return Promise.reject(new Error('the action sandbox is closed'))
    if (this.queue.length >= ACTION_QUEUE_MAX) return Promise.reject(new ActionPoolBusyError())
    return new Promise((resolve) => {
      this.queue.push({ job, host, resolve })
      this.pump()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const pending of this.queue.splice(0))
      pending.resolve({ ok: false, error: { kind: 'internal', message: 'the server is stopping' } })
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
      this.start(slot, this.queue.shift()!)
    }
  }

  private start(slot: Slot, pending: Pending): void {
    const id = this.nextId++
    slot.current = { id, pending }
    // The clock starts once the worker is up: a cold start is the server's cost, not the script's.
    slot.ready.then(
      () => {
        if (slot.current?.id !== id) return
        slot.current.timer = setTimeout(() => this.kill(slot), pending.job.timeLimitMs + KILL_MARGIN_MS)
        const limits = {
          maxStackBytes: ACTION_LIMITS.maxStackBytes,
          maxResultBytes: ACTION_LIMITS.maxResultBytes,
        }
        slot.worker.postMessage({ type: 'job', id, limits, ...pending.job } satisfies ToWorker)
      },
      (error: unknown) =>
        this.finish(slot, id, { ok: false, error: { kind: 'internal', message: String(error) } }),
    )
  }

  private spawn(index: number): Slot {
    const worker = new Worker(tsWorkerBootScript(new URL('./worker.ts', import.meta.url)), {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    })
    worker.unref()
    let markReady: () => void = () => {}
    let markFailed: (error: unknown) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve
      markFailed = reject
    })
    ready.catch(() => {})
    const slot: Slot = { worker, ready }
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') return markReady()
      const current = slot.current
      if (!current || message.id !== current.id) return
      if (message.type === 'log') return current.pending.host.log(message.line)
      if (message.type === 'db') {
        current.pending.host.db(message.op, message.args).then(
          (value) =>
            worker.postMessage({
              type: 'db-reply',
              request: message.request,
              ok: true,
              value: JSON.stringify(value ?? null),
            } satisfies ToWorker),
          (error: unknown) =>
            worker.postMessage({
              type: 'db-reply',
              request: message.request,
              ok: false,
              error: error instanceof Error ? error.message : String(error),
            } satisfies ToWorker),
        )
        return
      }
      const { type: _type, id: _id, ...result } = message
      this.finish(slot, current.id, result as SandboxResult)
    })
    const died = (error?: unknown) => {
      markFailed(error ?? new Error('the action worker stopped'))
      if (this.slots[index] === slot) this.slots[index] = null
      const current = slot.current
      if (current) {
        const oom = (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
        this.finish(slot, current.id, {
          ok: false,
          error: oom
            ? { kind: 'memory', message: 'out of memory' }
            : { kind: 'killed', message: String(error ?? 'the action worker stopped') },
        })
      }
    }
    worker.on('error', died)
    worker.on('exit', () => died())
    return slot
  }

  /** The second fence: the worker is killed mid-job and a new one is started for the next job. */
  private kill(slot: Slot): void {
    const current = slot.current
    if (!current) return
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots[index] = null
    this.finish(slot, current.id, { ok: false, error: { kind: 'killed', message: 'killed' } })
    void slot.worker.terminate()
  }

  private finish(slot: Slot, id: number, result: SandboxResult): void {
    const current = slot.current
    if (!current || current.id !== id) return
    if (current.timer) clearTimeout(current.timer)
    slot.current = undefined
    current.pending.resolve(result)
    if (!this.closed) this.pump()
  }
}
