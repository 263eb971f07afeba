/** Messages between the action pool (pool.ts) and its sandbox workers (worker.ts). */

export type DbOp = 'get' | 'list' | 'create' | 'update' | 'delete'
/** A host call: a db method, the guarded fetch, messages.send or pdf.create. */
export type HostOp = DbOp | 'fetch' | 'send' | 'pdf'

export interface SandboxJob {
  code: string
  /** The trigger's input, as JSON text. */
  input: string
  timeLimitMs: number
  memoryLimitBytes: number
}

export interface SandboxError {
  /**
   * script: the script threw; time, memory, stack, result, killed: a limit stopped it; loop and
   * permission: the run never started (the EVENT loop guard, a revoked token: run.ts); budget: a
   * budget of run volume stopped it before it started or at a write (budget.ts).
   */
  kind:
    | 'script'
    | 'syntax'
    | 'time'
    | 'memory'
    | 'stack'
    | 'result'
    | 'killed'
    | 'internal'
    | 'loop'
    | 'budget'
    | 'permission'
  message: string
  /** The script's line, when the error names one. */
  line?: number
}

export type SandboxResult = { ok: true; result: string } | { ok: false; error: SandboxError }

export type ToWorker =
  | ({ type: 'job'; id: number; limits: { maxStackBytes: number; maxResultBytes: number } } & SandboxJob)
  | { type: 'db-reply'; request: number; ok: boolean; value?: string; error?: string }

export type FromWorker =
  | { type: 'ready' }
  | { type: 'log'; id: number; line: string }
  | { type: 'db'; id: number; request: number; op: HostOp; args: unknown[] }
  | ({ type: 'done'; id: number } & SandboxResult)
