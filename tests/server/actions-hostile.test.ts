/**
 * Hostile action scripts (issue 15) against the real server: each is stopped with a clear error while
 * the server keeps answering the healthcheck, and the sandbox is fresh for the next run. The second
 * fence (the worker killed by wall clock) is tested on the pool itself with a host call that never
 * answers, the one wait QuickJS's own deadline cannot interrupt.
 */
import { describe, expect, it } from 'vitest'
import { ActionPool } from '../../src/server/actions/pool'
import { ACTION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

let seq = 0
async function attack(code: string, extra: Record<string, unknown> = {}) {
  const id = `hostile-${++seq}`
  const saved = await server.api('/api/actions', {
    json: { _id: id, name: id, trigger: { type: 'POST' }, code, timeLimitMs: 3000, ...extra },
    token: server.admin,
  })
  expect(saved.status, saved.text).toBe(201)
  // The healthcheck is polled for as long as the attack runs; every answer must come back 200.
  let done = false
  const health: number[] = []
  const poll = (async () => {
    while (!done) {
      const res = await server.api('/api/tools/healthcheck')
      health.push(res.status)
    }
  })()
  const res = await server.api(`/api/actions/run/${id}`, { json: {}, token: server.admin })
  done = true
  await poll
  expect(health.length).toBeGreaterThan(0)
  expect(health.every((s) => s === 200)).toBe(true)
  return res as {
    status: number
    body: { message: string; details?: { error?: { kind: string } } }
    text: string
  }
}

describe('hostile scripts', () => {
  it('stops an endless loop at its time limit', async () => {
    const res = await attack('while (true) {}', { timeLimitMs: 300 })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(ACTION_TEXT.timeout(300))
  })

  it('stops a script at its time limit even inside long operations QuickJS cannot interrupt', async () => {
    // Each indexOf scans 16 MB natively; QuickJS polls its deadline only every few thousand steps, so
    // the pool's wall clock stops it. The time limit did, and says so (not "killed").
    const res = await attack("const s = 'x'.repeat(1 << 24)\nwhile (true) s.indexOf('y')", {
      timeLimitMs: 300,
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(ACTION_TEXT.timeoutHard(300))
    const runs = await server.api(`/api/actions/hostile-${seq}/runs`, { token: server.admin })
    const [run] = runs.body as Array<{ error: { kind: string; message: string } }>
    expect(run!.error).toEqual({ kind: 'time', message: ACTION_TEXT.timeoutHard(300) })
  })

  it('stops a memory bomb at its memory limit', async () => {
    const res = await attack('const a = []\nwhile (true) a.push({ a: 1, b: [1, 2, 3] })', {
      timeLimitMs: 10_000,
      memoryLimitBytes: 4 * 1024 * 1024,
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(ACTION_TEXT.memory)
  })

  it('stops deep recursion with a stack error', async () => {
    const res = await attack('function f(n) { return f(n + 1) + 1 }\nreturn f(0)', { timeLimitMs: 5000 })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(ACTION_TEXT.stack)
  })

  it('refuses a 100 MB return value', async () => {
    const res = await attack("return 'x'.repeat(100 * 1024 * 1024)", {
      timeLimitMs: 5000,
      memoryLimitBytes: 64 * 1024 * 1024,
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(ACTION_TEXT.memory)
    // Under the memory limit but over the result limit: refused by size.
    const big = await attack("return 'x'.repeat(2 * 1024 * 1024)", { timeLimitMs: 5000 })
    expect(big.status).toBe(422)
    expect(big.body.message).toBe(ACTION_TEXT.resultTooLarge(1024 * 1024))
  })

  it('gives no way out to Node through constructors', async () => {
    for (const code of [
      "return this.constructor.constructor('return process')()",
      "return db.get.constructor('return require')()",
      "return log.constructor.constructor('return process.env')()",
    ]) {
      const res = await attack(code)
      expect(res.status, code).toBe(422)
      expect(res.body.message, code).toMatch(
        /ReferenceError: '?(process|require)'? is not defined \(line 1\)/,
      )
    }
    const res = await attack(
      'return [typeof process, typeof require, typeof globalThis.__host, typeof globalThis.__input, typeof fetch, Object.keys(db).join()]',
    )
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'function',
      'get,list,create,update,delete',
    ])
  })

  it('keeps prototype tricks inside one run', async () => {
    const polluted = await attack(
      'Object.prototype.polluted = "yes"\nArray.prototype.map = () => "hijacked"\nJSON.parse = () => "hijacked"\nreturn ({}).polluted',
    )
    expect(polluted.status).toBe(200)
    expect(polluted.body).toBe('yes')
    // A frozen db stays as it is, and the next run starts from a clean runtime.
    const next = await attack(
      "try { db.get = 1 } catch {}\nreturn [({}).polluted ?? 'clean', [1].map((x) => x + 1), typeof db.get, JSON.parse('[2]')]",
    )
    expect(next.status, next.text).toBe(200)
    expect(next.body).toEqual(['clean', [2], 'function', [2]])
    // The host never sees the script's prototypes: a polluted result is plain JSON.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('records each stopped run with its error kind', async () => {
    const id = `hostile-${seq}`
    const runs = await server.api(`/api/actions/${id}/runs`, { token: server.admin })
    expect((runs.body as unknown[]).length).toBeGreaterThan(0)
    const loops = await server.api('/api/actions/hostile-1/runs', { token: server.admin })
    expect((loops.body as Array<{ error: { kind: string } }>)[0]!.error.kind).toBe('time')
  })
})

describe('fetch', () => {
  it('refuses loopback, private and local addresses, the server itself included', async () => {
    const own = new URL(server.url)
    for (const url of [
      `http://127.0.0.1:${own.port}/api/tools/healthcheck`,
      `http://localhost:${own.port}/`,
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'file:///etc/passwd',
    ]) {
      const res = await attack(`const r = await fetch(${JSON.stringify(url)})\nreturn r.status`)
      expect(res.status, url).toBe(422)
      expect(res.body.message, url).toMatch(/^Error: fetch: .* \(line 1\)$/)
    }
  })
})

describe('the second fence', () => {
  it('ends a job that left a host call unanswered cleanly, and the same worker runs the next one', async () => {
    // The script throws while its db call is still out: the call's promise is freed before the
    // runtime (else QuickJS aborts in JS_FreeRuntime and the worker's module is dead).
    const pool = new ActionPool(1)
    // A worker's stderr comes through this process's: QuickJS prints "Aborted(…)" there when it fails.
    const printed: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      printed.push(String(chunk))
      return write(chunk, ...rest)
    }) as typeof process.stderr.write
    try {
      const thrown = await pool.run(
        {
          code: "db.get('c', 'x')\nthrow new Error('early')",
          input: 'null',
          timeLimitMs: 1000,
          memoryLimitBytes: 8 << 20,
        },
        { db: () => new Promise((r) => setTimeout(() => r(null), 50)), log: () => {} },
      )
      expect(thrown).toMatchObject({ ok: false, error: { kind: 'script' } })
      await new Promise((r) => setTimeout(r, 100))
      for (let i = 0; i < 3; i++) {
        const after = await pool.run(
          { code: 'return input + 1', input: '41', timeLimitMs: 1000, memoryLimitBytes: 8 << 20 },
          { db: async () => null, log: () => {} },
        )
        expect(after).toEqual({ ok: true, result: '42' })
      }
      expect(printed.join('')).not.toContain('Aborted(')
    } finally {
      process.stderr.write = write
      await pool.close()
    }
  })

  it('kills a worker whose job outlives its time, and the pool keeps working', async () => {
    const pool = new ActionPool(1)
    try {
      const stuck = await pool.run(
        {
          code: "await db.get('c', 'x')\nreturn 1",
          input: 'null',
          timeLimitMs: 100,
          memoryLimitBytes: 8 << 20,
        },
        { db: () => new Promise(() => {}), log: () => {} },
      )
      expect(stuck).toEqual({ ok: false, error: { kind: 'time', message: 'killed' } })
      const after = await pool.run(
        { code: 'return input + 1', input: '41', timeLimitMs: 1000, memoryLimitBytes: 8 << 20 },
        { db: async () => null, log: () => {} },
      )
      expect(after).toEqual({ ok: true, result: '42' })
    } finally {
      await pool.close()
    }
  })
})
