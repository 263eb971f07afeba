/**
 * Actions on two server instances sharing one PostgreSQL database (issue 15, docs/operating/actions.md
 * "Schedules and events"): a due CRON run and each EVENT are claimed by a conditional write of the
 * action's state at the revision read (PostgreSQL applies it under the writers' lock, as FOR UPDATE
 * would), so however the two instances race, each runs exactly once. Both are driven by tickActions
 * with the test's clock (their own timers are stopped), ticking at the same moment. The live tail
 * reaches sockets on the instance that did not run the action. Skipped, like every PostgreSQL suite,
 * when no PostgreSQL can be had (tests/helpers/postgres.ts).
 */
import { beforeAll, expect, it } from 'vitest'
import { tickActions } from '../../src/server/actions/schedule'
import { ACTION_RUNS_TOPIC } from '../../src/shared/actions'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'
import { openSocket } from './socket-client'

describePostgres('actions on two instances sharing PostgreSQL', () => {
  const pair = serverPairOnPostgres()
  let admin: string

  beforeAll(async () => {
    pair.a.services.actionScheduler.stop()
    pair.b.services.actionScheduler.stop()
    admin = await pair.a.login()
  })

  const runsOf = async (id: string) =>
    (await pair.a.api(`/api/actions/${id}/runs`, { token: admin })).body as Array<{
      trigger: string
      result: unknown
    }>
  /** Both instances tick at the same moment, several times over. */
  const race = (now: Date) =>
    Promise.all(
      [1, 2, 3].flatMap(() => [tickActions(pair.a.services, now), tickActions(pair.b.services, now)]),
    )

  it('runs a due CRON action once', async () => {
    const { a, b } = pair
    const saved = await b.api('/api/actions', {
      json: {
        _id: 'hourly',
        name: 'hourly',
        trigger: { type: 'CRON', cron: '0 * * * *', timezone: 'UTC' },
        code: "await db.create('ticks', { at: input.schedule.scheduledFor })\nreturn input.schedule.scheduledFor",
      },
      token: admin,
    })
    expect(saved.status, saved.text).toBe(201)
    await race(new Date('2031-05-01T09:30:00Z'))
    expect(await runsOf('hourly')).toHaveLength(0)
    await race(new Date('2031-05-01T10:00:02Z'))
    await race(new Date('2031-05-01T10:00:03Z'))
    const runs = await runsOf('hourly')
    expect(runs).toEqual([expect.objectContaining({ trigger: 'CRON', result: '2031-05-01T10:00:00.000Z' })])
    expect((await a.services.store.list('data/ticks')).total).toBe(1)
    // The next hour: again once.
    await race(new Date('2031-05-01T11:00:01Z'))
    expect(await runsOf('hourly')).toHaveLength(2)
  })

  it('runs an EVENT action once per change, and tails the run on the other instance', async () => {
    const { a, b } = pair
    const saved = await a.api('/api/actions', {
      json: {
        _id: 'on-signup',
        name: 'on signup',
        trigger: { type: 'EVENT', collection: 'signups', operations: ['create'] },
        code: 'return input.event.id',
      },
      token: admin,
    })
    expect(saved.status, saved.text).toBe(201)
    await race(new Date())
    const tokenB = await b.login()
    const socket = await openSocket(b.url, tokenB)
    try {
      await socket.next((m) => m.event === 'connected')
      socket.send('subscribe', { topic: ACTION_RUNS_TOPIC })
      socket.send('subscriptions')
      await socket.next((m) => m.event === 'subscriptions')
      for (const id of ['s1', 's2', 's3'])
        expect((await b.api('/api/data/signups', { json: { _id: id }, token: admin })).status).toBe(201)
      await race(new Date())
      await race(new Date())
      const runs = await runsOf('on-signup')
      expect(runs.map((r) => r.result).sort()).toEqual(['s1', 's2', 's3'])
      const tailed = new Set<unknown>()
      while (tailed.size < 3) {
        const frame = await socket.next((m) => m.event === ACTION_RUNS_TOPIC)
        tailed.add((frame.payload as { result: unknown }).result)
      }
      expect([...tailed].sort()).toEqual(['s1', 's2', 's3'])
    } finally {
      await socket.close()
    }
  })
})
