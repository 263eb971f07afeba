/**
 * The budgets of action runs (issue 35 finding 3, docs/operating/actions.md "Budgets") against the real server on
 * SQLite, driven by tickActions: the loop guard bounds depth only, so an action that creates three
 * documents in the collection it watches is stopped by the budget per causing change (runs, and writes
 * even midway through a run), an action flooded by people's changes by the budget per minute; each
 * stop is a recorded run naming the budget and its limit, and one line in Server Logs.
 * tests/server/actions-budget-postgres.test.ts holds the same across two instances.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { tickActions } from '../../src/server/actions/schedule'
import { ACTION_LIMITS } from '../../src/shared/actions'
import { ACTION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
beforeAll(() => {
  server.services.actionScheduler.stop()
})

interface Run {
  _id: string
  status: string
  chain?: string
  writes?: number
  depth?: number
  error?: { kind: string; message: string }
}

async function runsOf(id: string): Promise<Run[]> {
  const { items } = await server.services.store.list('action-runs', { filter: { action: id }, limit: 10_000 })
  return items as unknown as Run[]
}

async function save(doc: Record<string, unknown>) {
  const res = await server.api('/api/actions', { json: doc, token: server.admin })
  expect(res.status, res.text).toBe(201)
  // The first tick sets the cursor at the head of the change log.
  await tickActions(server.services, new Date())
}

/** Ticks until a round starts no new run, at most `rounds` times (a runaway without budgets would not stop). */
async function settle(id: string, rounds = 40) {
  let last = -1
  for (let i = 0; i < rounds; i++) {
    await tickActions(server.services, new Date())
    const count = (await runsOf(id)).length
    if (count === last) return
    last = count
  }
}

async function budgetLines(action: string) {
  const { items } = await server.services.store.list('logs/server', { filter: { 'ctx.action': action } })
  return items.map((line) => ({ log: line.log, ctx: line.ctx as Record<string, unknown> }))
}

describe('the budget per causing change', () => {
  it('stops an action that creates three documents in its own collection at maxChainRuns runs', async () => {
    await save({
      _id: 'swarm',
      name: 'swarm',
      trigger: { type: 'EVENT', collection: 'swarm', operations: ['create'] },
      code: "for (let i = 0; i < 3; i++) await db.create('swarm', { from: input.event.id })",
    })
    await server.api('/api/data/swarm', { json: { _id: 'seed' }, token: server.admin })
    await settle('swarm')
    const runs = await runsOf('swarm')
    const ran = runs.filter((r) => r.status === 'ok')
    const stopped = runs.filter((r) => r.error?.kind === 'budget')
    expect(ran).toHaveLength(ACTION_LIMITS.maxChainRuns)
    expect(stopped.length).toBeGreaterThan(0)
    expect(runs.length).toBe(ran.length + stopped.length)
    for (const run of stopped)
      expect(run.error!.message).toBe(ACTION_TEXT.budgetChainRuns(ACTION_LIMITS.maxChainRuns))
    // One chain: every run descends from the one write of a person.
    expect(new Set(runs.map((r) => r.chain)).size).toBe(1)
    expect((await server.services.store.list('data/swarm', { limit: 0 })).total).toBe(
      1 + 3 * ACTION_LIMITS.maxChainRuns,
    )
    // The owner is told once in Server Logs, however many runs were stopped.
    const lines = await budgetLines('swarm')
    expect(lines).toHaveLength(1)
    expect(lines[0]!.log).toBe(
      ACTION_TEXT.budgetLog('swarm', ACTION_TEXT.budgetChainRuns(ACTION_LIMITS.maxChainRuns)),
    )
    expect(lines[0]!.ctx).toMatchObject({
      budget: 'chainRuns',
      limit: ACTION_LIMITS.maxChainRuns,
      owner: 'admin',
    })
    // A new change of a person is a new chain, with a budget of its own.
    await server.api('/api/data/swarm', { json: { _id: 'seed-2' }, token: server.admin })
    await tickActions(server.services, new Date())
    const fresh = (await runsOf('swarm')).filter((r) => !runs.some((old) => old._id === r._id))
    expect(fresh.some((r) => r.status === 'ok' && r.depth === 1)).toBe(true)
    await server.api('/api/actions/swarm', { method: 'PATCH', json: { enabled: false }, token: server.admin })
  })

  it('stops a chain at maxChainWrites writes, midway through a run', async () => {
    // 998 writes elsewhere and one to itself: each run 999 writes, within maxDbCalls.
    const perRun = ACTION_LIMITS.maxDbCalls - 2
    await save({
      _id: 'wave',
      name: 'wave',
      trigger: { type: 'EVENT', collection: 'wave', operations: ['create'] },
      code: `await Promise.all(Array.from({ length: ${perRun} }, (_, i) => db.create('wave-out', { i })))\nawait db.create('wave', {})\nreturn 'done'`,
      timeLimitMs: 10_000,
    })
    await server.api('/api/data/wave', { json: { _id: 'w0' }, token: server.admin })
    await settle('wave', 12)
    const runs = await runsOf('wave')
    const writes = runs.reduce((n, r) => n + (r.writes ?? 0), 0)
    expect(writes).toBe(ACTION_LIMITS.maxChainWrites)
    const last = runs.find((r) => r.status === 'error')!
    expect(last.error).toEqual({
      kind: 'budget',
      message: ACTION_TEXT.budgetChainWrites(ACTION_LIMITS.maxChainWrites),
    })
    expect(last.writes).toBeGreaterThan(0)
    expect(runs.filter((r) => r.status === 'ok')).toHaveLength(
      Math.floor(ACTION_LIMITS.maxChainWrites / (perRun + 1)),
    )
    expect((await budgetLines('wave')).map((l) => l.ctx.budget)).toEqual(['chainWrites'])
  }, 60_000)
})

describe('the budget per action per minute', () => {
  it('stops the runs past maxEventRunsPerMinute, counting what pruning would drop', async () => {
    // Keep 10 runs: the runs the budget counts must outlive that (the newest 10 stay, stopped or not).
    const setting = await server.api('/api/settings', {
      json: { _id: 'action_runs', value: { keep: 10 } },
      token: server.admin,
    })
    expect(setting.status, setting.text).toBe(201)
    await save({
      _id: 'flood',
      name: 'flood',
      trigger: { type: 'EVENT', collection: 'flood', operations: ['create'] },
      code: 'return input.event.id',
    })
    const extra = 7
    const count = ACTION_LIMITS.maxEventRunsPerMinute + extra
    // Written as a person would, each a change of its own (a chain of its own).
    await server.services.store.writeMany(
      Array.from({ length: count }, (_, i) => ({
        op: 'create' as const,
        collection: 'data/flood',
        id: `f${i}`,
        body: {},
      })),
      { user: 'admin' },
    )
    await settle('flood', Math.ceil(count / 50) + 5)
    const runs = await runsOf('flood')
    expect(runs.filter((r) => r.status === 'ok')).toHaveLength(ACTION_LIMITS.maxEventRunsPerMinute)
    const stopped = runs.filter((r) => r.status === 'error')
    expect(stopped.map((r) => r.error)).toEqual(
      Array.from({ length: extra }, () => ({
        kind: 'budget',
        message: ACTION_TEXT.budgetMinute(ACTION_LIMITS.maxEventRunsPerMinute),
      })),
    )
    expect((await budgetLines('flood')).map((l) => l.ctx.budget)).toEqual(['minute'])
  }, 60_000)
})
