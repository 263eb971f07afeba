/**
 * The worker thread that runs action scripts (docs/operating/actions.md). Each job gets a fresh QuickJS runtime
 * (a WebAssembly interpreter with its own heap: the script cannot reach Node, `process`, `require` or
 * this thread's globals) with a memory limit, a maximum stack size and an interrupt at the deadline.
 * pool.ts adds the second fence: it terminates this thread when a job outlives its time by a margin.
 *
 * The script sees `input`, `log(...)`, `db`, `fetch`, `messages` and `pdf` only. `db` calls are asynchronous: each is a message
 * to the main thread, which checks the run-as user's permissions and answers; the script awaits them.
 */
import { parentPort } from 'node:worker_threads'
import {
  getQuickJS,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten'
import type { FromWorker, HostOp, SandboxError, SandboxResult, ToWorker } from './protocol'

const port = parentPort
if (!port) throw new Error('worker.ts runs as a worker thread')
const send = (message: FromWorker) => port.postMessage(message)

/** Host-side answers awaited by the job running now (one job at a time per worker). */
const replies = new Map<number, (reply: Extract<ToWorker, { type: 'db-reply' }>) => void>()
let nextRequest = 1
let wake: (() => void) | null = null

/**
 * Defines `db`, `fetch`, `messages` and `pdf` from the one host function, then removes it from the
 * global object, so the script can only call those. Captured built-ins keep working if the script replaces
 * JSON or Promise methods later.
 */
const PRELUDE = `(() => {
  const host = globalThis.__host, parse = JSON.parse, stringify = JSON.stringify
  delete globalThis.__host
  const call = (op, args) => host(op, stringify(args)).then((text) => parse(text))
  globalThis.input = parse(globalThis.__input)
  delete globalThis.__input
  globalThis.fetch = (url, init) =>
    call('fetch', [String(url), init ?? {}]).then((r) => ({
      status: r.status, ok: r.status >= 200 && r.status < 300, headers: r.headers,
      text: async () => r.body, json: async () => parse(r.body),
    }))
  globalThis.db = Object.freeze({
    get: (collection, id) => call('get', [collection, id]),
    list: (collection, query) => call('list', [collection, query ?? {}]),
    create: (collection, doc) => call('create', [collection, doc]),
    update: (collection, id, patch) => call('update', [collection, id, patch]),
    delete: (collection, id) => call('delete', [collection, id]),
  })
  globalThis.messages = Object.freeze({ send: (channel, message) => call('send', [channel, message ?? {}]) })
  globalThis.pdf = Object.freeze({ create: (request) => call('pdf', [request ?? {}]) })
})()`

const OPS: readonly HostOp[] = ['get', 'list', 'create', 'update', 'delete', 'fetch', 'send', 'pdf']

function lineOf(stack: unknown): number | undefined {
  const match = typeof stack === 'string' ? /action\.js:(\d+)/.exec(stack) : null
  return match ? Number(match[1]) : undefined
}

/** A QuickJS exception as the error the API shows, with the limit that caused it when one did. */
function describe(dumped: unknown): SandboxError {
  const e = (typeof dumped === 'object' && dumped !== null ? dumped : { message: String(dumped) }) as {
    name?: string
    message?: string
    stack?: string
  }
  const message = String(e.message ?? e)
  const line = lineOf(e.stack)
  if (e.name === 'InternalError' && message === 'interrupted') return { kind: 'time', message }
  if (message === 'out of memory' || /out of memory/i.test(message)) return { kind: 'memory', message }
  if (/stack overflow|call stack/i.test(message)) return { kind: 'stack', message, line }
  if (e.name === 'SyntaxError') return { kind: 'syntax', message: `SyntaxError: ${message}`, line }
  return { kind: 'script', message: e.name ? `${e.name}: ${message}` : message, line }
}

function dumpError(vm: QuickJSContext, handle: QuickJSHandle): SandboxError {
  try {
    return describe(vm.dump(handle))
  } catch {
    // An exception too large or broken to copy out: out of memory is by far the likeliest cause.
    return { kind: 'memory', message: 'out of memory' }
  } finally {
    handle.dispose()
  }
}

async function runJob(
  quickjs: QuickJSWASMModule,
  job: Extract<ToWorker, { type: 'job' }>,
): Promise<SandboxResult> {
  const runtime = quickjs.newRuntime()
  runtime.setMemoryLimit(job.memoryLimitBytes)
  runtime.setMaxStackSize(job.limits.maxStackBytes)
  const vm = runtime.newContext()
  const pending = new Set<number>()
  // Host calls still unanswered when the job ends (a limit, a thrown error): their promises must be
  // freed before the runtime, or QuickJS aborts on live objects (JS_FreeRuntime's assertion).
  const unsettled = new Set<{ alive: boolean; dispose(): void }>()
  try {
    const log = vm.newFunction('log', (...args) => {
      const parts = args.map((h) => {
        if (vm.typeof(h) === 'string') return vm.getString(h)
        try {
          return JSON.stringify(vm.dump(h)) ?? String(vm.dump(h))
        } catch {
          return '[unprintable]'
        }
      })
      send({ type: 'log', id: job.id, line: parts.join(' ') })
    })
    vm.setProp(vm.global, 'log', log)
    log.dispose()
    const host = vm.newFunction('__host', (opHandle, argsHandle) => {
      const op = vm.getString(opHandle) as HostOp
      const deferred = vm.newPromise()
      if (!OPS.includes(op)) {
        const err = vm.newError('unknown db operation')
        deferred.reject(err)
        err.dispose()
        return deferred.handle
      }
      const args = JSON.parse(vm.getString(argsHandle)) as unknown[]
      const request = nextRequest++
      pending.add(request)
      unsettled.add(deferred)
      replies.set(request, (reply) => {
        pending.delete(request)
        unsettled.delete(deferred)
        if (!deferred.alive) return
        if (reply.ok) {
          const value = vm.newString(reply.value ?? 'null')
          deferred.resolve(value)
          value.dispose()
        } else {
          const err = vm.newError(reply.error ?? 'db call failed')
          deferred.reject(err)
          err.dispose()
        }
      })
      send({ type: 'db', id: job.id, request, op, args })
      return deferred.handle
    })
    vm.setProp(vm.global, '__host', host)
    host.dispose()
    const input = vm.newString(job.input)
    vm.setProp(vm.global, '__input', input)
    input.dispose()
    const prelude = vm.evalCode(PRELUDE, 'prelude.js')
    if (prelude.error) return { ok: false, error: dumpError(vm, prelude.error) }
    prelude.value.dispose()

    // The code starts on the wrapper's first line, so the line numbers of errors are the script's.
    const wrapped = `(async () => {${job.code}\n})().then((v) => JSON.stringify(v === undefined ? null : v))`
    // The clock starts with the script: setting up the runtime is the server's cost.
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + job.timeLimitMs))
    const evaluated = vm.evalCode(wrapped, 'action.js')
    if (evaluated.error) return { ok: false, error: dumpError(vm, evaluated.error) }
    const promise = evaluated.value
    try {
      for (;;) {
        const jobs = runtime.executePendingJobs()
        if (jobs.error) return { ok: false, error: dumpError(vm, jobs.error) }
        const state = vm.getPromiseState(promise)
        if (state.type === 'rejected') return { ok: false, error: dumpError(vm, state.error) }
        if (state.type === 'fulfilled') return resultOf(vm, state.value, job.limits.maxResultBytes)
        if (pending.size === 0)
          return {
            ok: false,
            error: { kind: 'script', message: 'The script awaited a promise that never settles' },
          }
        await new Promise<void>((resolve) => {
          wake = resolve
        })
      }
    } finally {
      promise.dispose()
    }
  } finally {
    for (const request of pending) replies.delete(request)
    for (const deferred of unsettled) if (deferred.alive) deferred.dispose()
    try {
      vm.dispose()
      runtime.dispose()
    } catch {
      // A runtime stopped by its memory limit may not free cleanly; the worker stays usable.
    }
  }
}

function resultOf(vm: QuickJSContext, handle: QuickJSHandle, max: number): SandboxResult {
  try {
    if (vm.typeof(handle) !== 'string')
      return { ok: false, error: { kind: 'result', message: 'The action returned a value that is not JSON' } }
    const length = vm.getProp(handle, 'length').consume((h) => vm.getNumber(h))
    if (length > max)
      return { ok: false, error: { kind: 'result', message: `result larger than ${max} bytes` } }
    const text = vm.getString(handle)
    if (Buffer.byteLength(text) > max)
      return { ok: false, error: { kind: 'result', message: `result larger than ${max} bytes` } }
    return { ok: true, result: text }
  } finally {
    handle.dispose()
  }
}

function serve(quickjs: QuickJSWASMModule): void {
  port!.on('message', (message: ToWorker) => {
    if (message.type === 'db-reply') {
      replies.get(message.request)?.(message)
      replies.delete(message.request)
      const w = wake
      wake = null
      w?.()
      return
    }
    runJob(quickjs, message).then(
      (result) => send({ type: 'done', id: message.id, ...result }),
      (error: unknown) =>
        send({
          type: 'done',
          id: message.id,
          ok: false,
          error: { kind: 'internal', message: String(error) },
        }),
    )
  })
  send({ type: 'ready' })
}

void getQuickJS().then(serve)
