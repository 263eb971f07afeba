/**
 * The action sandbox workers (worker.ts) in the shared WorkerPool (../worker-pool.ts), which is the
 * second fence: QuickJS interrupts a script at its deadline, and should that ever fail (a host call
 * that never returns, native work QuickJS cannot interrupt) the worker is terminated KILL_MARGIN_MS
 * later and replaced. The worker's V8 heap is capped too, beyond QuickJS's own memory limit.
 * Jobs beyond the workers wait in a bounded queue; past ACTION_QUEUE_MAX the caller gets 'busy'.
 * While a job runs, the worker's host calls (db, fetch, messages, pdf) are answered by its JobHost.
 */
import { ACTION_LIMITS } from '../../shared/actions'
import { type PoolFailure, WorkerPool, WorkerPoolBusyError } from '../worker-pool'
import type { FromWorker, HostOp, SandboxJob, SandboxResult, ToWorker } from './protocol'

export const ACTION_WORKERS = 2
export const ACTION_QUEUE_MAX = 64
/** Wall-clock time past the job's own limit before the worker is killed. */
export const KILL_MARGIN_MS = 1000
const WORKER_HEAP_MB = 192

/** What the host does for the job: answers its host calls and keeps log lines. */
export interface JobHost {
  db(op: HostOp, args: unknown[]): Promise<unknown>
  log(line: string): void
}

export { WorkerPoolBusyError as ActionPoolBusyError }

function failure(kind: PoolFailure, detail: string): SandboxResult {
  switch (kind) {
    case 'timeout':
      // The job outlived its time limit (plus the margin): that limit stopped it, by the second fence.
      return { ok: false, error: { kind: 'time', message: 'killed' } }
    case 'memory':
      return { ok: false, error: { kind: 'memory', message: 'out of memory' } }
    case 'crashed':
      return { ok: false, error: { kind: 'killed', message: detail } }
    default:
      return { ok: false, error: { kind: 'internal', message: detail } }
  }
}

/** Answers one host call of the running job. */
function answer(message: FromWorker, host: JobHost, post: (reply: ToWorker) => void, id: number): void {
  if (message.type === 'done' || message.type === 'ready' || message.id !== id) return
  if (message.type === 'log') {
    host.log(message.line)
    return
  }
  host.db(message.op, message.args).then(
    (value) =>
      post({ type: 'db-reply', request: message.request, ok: true, value: JSON.stringify(value ?? null) }),
    (error: unknown) =>
      post({
        type: 'db-reply',
        request: message.request,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }),
  )
}

export class ActionPool {
  private readonly pool: WorkerPool<SandboxJob, SandboxResult, JobHost>

  constructor(size = ACTION_WORKERS) {
    this.pool = new WorkerPool({
      script: new URL('./worker.ts', import.meta.url),
      size,
      queueMax: ACTION_QUEUE_MAX,
      heapMb: WORKER_HEAP_MB,
      closedMessage: 'the action sandbox is closed',
      jobMessage: (id, job) =>
        ({
          type: 'job',
          id,
          limits: {
            maxStackBytes: ACTION_LIMITS.maxStackBytes,
            maxResultBytes: ACTION_LIMITS.maxResultBytes,
          },
          ...job,
        }) satisfies ToWorker,
      failure,
      onRequest: (message, host, post, id) => answer(message as FromWorker, host, post, id),
    })
  }

  run(job: SandboxJob, host: JobHost): Promise<SandboxResult> {
    return this.pool.run(job, host, job.timeLimitMs + KILL_MARGIN_MS)
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}
