/**
 * The budgets of action runs (issue 35 finding 3, docs/operating/actions.md "Budgets") on two server instances
 * sharing one PostgreSQL database: both count the run records in the store, so however the instances
 * race for the changes, a chain stops near maxChainRuns runs and an action near maxEventRunsPerMinute
 * a minute — past them by at most the runs in flight at once (one per instance), never by the volume
 * an instance alone would allow. Skipped, like every PostgreSQL suite, when no PostgreSQL can be had.
 */
import { beforeAll, expect, it } from 'vitest'
import { tickActions } from '../../src/server/actions/schedule'
import { ACTION_LIMITS } from '../../src/shared/actions'
import { ACTION_TEXT } from '../../src/shared/texts'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'

/** Runs in flight at once across the pair: each instance runs one action's changes in turn. */
const IN_FLIGHT = 2

describePostgres('action budgets on two instances sharing PostgreSQL', () => {
  const pair = serverPairOnPostgres()
  let admin: string

  beforeAll(async () => {
    pair.a.services.actionScheduler.stop()
    pair.b.services.actionScheduler.stop()
    admin = await pair.a.login()
  })

  const runsOf = async (action: string) =>
    (await pair.a.services.store.list('action-runs', { filter: { action }, limit: 10_000 }))
      .items as unknown as Array<{
      status: string
      error?: { kind: string; message: string }
    }>
  const race = () =>
    Promise.all([tickActions(pair.a.services, new Date()), tickActions(pair.b.services, new Date())])
  /** Both instances tick together until a round starts no new run. */
  async function settle(action: string, rounds: number) {
    let last = -1
    for (let i = 0; i < rounds; i++) {
      await race()
      const count = (await runsOf(action)).length
      if (count === last) return
      last = count
    }
  }
  async function save(doc: Record<string, unknown>) {
    const res = await pair.b.api('/api/actions', { json: doc, token: admin })
    expect(res.status, res.text).toBe(201)
    await race()
  }
  const budgetLines = async (action: string) =>
    (await pair.a.services.store.list('logs/server', { filter: { 'ctx.action': action } })).items

  it('stops a chain of runs at the budget per causing change, counted across both', async () => {
    await save({
      _id: 'swarm',
      name: 'swarm',
      trigger: { type: 'EVENT', collection: 'swarm', operations: ['create'] },
      code: "for (let i = 0; i < 3; i++) await db.create('swarm', { from: input.event.id })",
    })
    await pair.a.api('/api/data/swarm', { json: { _id: 'seed' }, token: admin })
    await settle('swarm', 40)
    const runs = await runsOf('swarm')
    const ran = runs.filter((r) => r.status === 'ok').length
    expect(ran).toBeGreaterThanOrEqual(ACTION_LIMITS.maxChainRuns)
    expect(ran).toBeLessThanOrEqual(ACTION_LIMITS.maxChainRuns + IN_FLIGHT)
    const stopped = runs.filter((r) => r.error?.kind === 'budget')
    expect(stopped.length).toBeGreaterThan(0)
    expect(new Set(stopped.map((r) => r.error!.message))).toEqual(
      new Set([ACTION_TEXT.budgetChainRuns(ACTION_LIMITS.maxChainRuns)]),
    )
    const lines = await budgetLines('swarm')
    expect(lines.length).toBeGreaterThanOrEqual(1)
    expect(lines.length).toBeLessThanOrEqual(IN_FLIGHT)
  }, 120_000)

  it('stops an action flooded by changes at the budget per minute, counted across both', async () => {
    await save({
      _id: 'flood',
      name: 'flood',
      trigger: { type: 'EVENT', collection: 'flood', operations: ['create'] },
      code: 'return input.event.id',
    })
    const count = ACTION_LIMITS.maxEventRunsPerMinute + 20
    const started = Date.now()
    await pair.a.services.store.writeMany(
      Array.from({ length: count }, (_, i) => ({
        op: 'create' as const,
        collection: 'data/flood',
        id: `f${i}`,
        body: {},
      })),
      { user: 'admin' },
    )
    await settle('flood', Math.ceil(count / 50) + 10)
    const took = Date.now() - started
    const runs = (await runsOf('flood')) as Array<{ status: string; start: string; error?: unknown }>
    expect(runs).toHaveLength(count)
    const ok = runs.filter((r) => r.status === 'ok').map((r) => Date.parse(r.start))
    // The budget's own promise, whatever the machine's speed: no minute holds more counted runs than
    // the limit (plus the runs that were in flight on the two instances when it was reached).
    for (const t of ok) {
      const inWindow = ok.filter((u) => u <= t && u > t - 60_000).length
      expect(inWindow).toBeLessThanOrEqual(ACTION_LIMITS.maxEventRunsPerMinute + IN_FLIGHT)
    }
    for (const run of runs.filter((r) => r.status !== 'ok'))
      expect(run.error).toEqual({
        kind: 'budget',
        message: ACTION_TEXT.budgetMinute(ACTION_LIMITS.maxEventRunsPerMinute),
      })
    // Within one minute (a machine not loaded far past its cores) the flood met the budget itself.
    if (took < 55_000) {
      expect(ok.length).toBeGreaterThanOrEqual(ACTION_LIMITS.maxEventRunsPerMinute)
      expect(ok.length).toBeLessThanOrEqual(ACTION_LIMITS.maxEventRunsPerMinute + IN_FLIGHT)
      expect((await budgetLines('flood')).length).toBeGreaterThanOrEqual(1)
    }
  }, 180_000)
})
