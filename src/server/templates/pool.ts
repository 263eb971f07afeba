/**
 * The render workers (render-worker.ts) in the shared WorkerPool (../worker-pool.ts): each job gets
 * TEMPLATE_TIMEOUT_MS of worker time, after which the worker is terminated — whatever it is doing,
 * even inside one filter call — and replaced on the next job. A worker's heap is capped too, so a
 * template that allocates without bound kills its worker, not the server. Jobs beyond the workers
 * wait in a bounded queue; past TEMPLATE_QUEUE_MAX the caller gets 'busy'.
 * The worker asks for layouts and partials by name while it renders; `lookup` answers them.
 */
import { type PoolFailure, WorkerPool, WorkerPoolBusyError } from '../worker-pool'
import { referenceCycle } from './cycle'
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

export { WorkerPoolBusyError as PoolBusyError }

type RenderJob = Omit<Job, 'id' | 'type'>

function failure(kind: PoolFailure, detail: string): JobResult {
  if (kind === 'timeout') return { ok: false, failure: { kind: 'time', detail } }
  if (kind === 'memory') return { ok: false, failure: { kind: 'memory', detail, part: undefined } }
  return { ok: false, failure: { kind: 'render', detail } }
}

export class RenderPool {
  private readonly pool: WorkerPool<RenderJob, JobResult, Lookup>

  constructor(
    size = TEMPLATE_WORKERS,
    private readonly timeoutMs = TEMPLATE_TIMEOUT_MS,
  ) {
    this.pool = new WorkerPool({
      script: new URL('./render-worker.ts', import.meta.url),
      size,
      queueMax: TEMPLATE_QUEUE_MAX,
      heapMb: WORKER_HEAP_MB,
      workerData: TEMPLATE_LIMITS,
      closedMessage: 'the template renderer is closed',
      jobMessage: (id, job) => ({ type: 'job', id, ...job }) satisfies ToWorker,
      failure,
      onRequest(message, lookup, post) {
        const request = message as FromWorker
        if (request.type !== 'lookup') return
        lookup(request.dir, request.name).then(
          (source) => post({ type: 'file', request: request.request, source } satisfies ToWorker),
          () => post({ type: 'file', request: request.request, source: null } satisfies ToWorker),
        )
      },
    })
  }

  /** `timeoutMs` overrides the pool's hard limit for this job (tests of the fence itself). */
  async run(job: RenderJob, lookup: Lookup, timeoutMs = this.timeoutMs): Promise<JobResult> {
    // What the worker read, kept here too: a worker that died of its heap cap or the hard time limit
    // (which of the worker's or LiquidJS's limits comes first depends on the machine's load) can no
    // longer name the loop that killed it, so the pool names it from the same sources.
    const read = new Map<string, string>()
    const recording: Lookup = async (dir, name) => {
      const source = await lookup(dir, name)
      if (source !== null) read.set(`${dir}/${name}`, source)
      return source
    }
    const result = await this.pool.run(job, recording, timeoutMs)
    if (result.ok || (result.failure.kind !== 'memory' && result.failure.kind !== 'time')) return result
    for (const part of job.parts) {
      const cycle = referenceCycle(part.source, read)
      if (cycle) return { ok: false, failure: { kind: 'cycle', detail: cycle, part: part.field } }
    }
    return result
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}
