/**
 * CRON and EVENT actions (issue 15) against the real server, driven by tickActions with a clock of the
 * test's own (the server's own timer is stopped): a CRON action runs once per due time however many
 * ticks race for it, and an EVENT action runs exactly once per change across a server restart.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tickActions } from '../../src/server/actions/schedule'
import { ACTION_TEXT } from '../../src/shared/texts'
import { startTestServer, type TestServer } from '../helpers/server'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-actions-'))
let server: TestServer
let admin: string

async function boot() {
  server = await startTestServer({ dataDir })
  server.services.actionScheduler.stop()
  admin = await server.login()
}

beforeAll(boot)
afterAll(async () => {
  await server?.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

async function runsOf(id: string) {
  const res = await server.api(`/api/actions/${id}/runs`, { token: admin })
  return res.body as Array<{ status: string; trigger: string; result: unknown; error?: unknown }>
}

describe('CRON actions', () => {
  it('refuses a bad expression or time zone', async () => {
    const bad = await server.api('/api/actions', {
      json: { name: 'c', trigger: { type: 'CRON', cron: 'every day' }, code: '' },
      token: admin,
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('trigger.cron is not a valid cron expression')
    const zone = await server.api('/api/actions', {
      json: { name: 'c', trigger: { type: 'CRON', cron: '* * * * *', timezone: 'Nowhere/City' }, code: '' },
      token: admin,
    })
    expect(zone.status).toBe(400)
    expect((zone.body as { message: string }).message).toBe(ACTION_TEXT.timezoneInvalid)
  })

  it('stores the next run and runs a due action once, however many ticks race for it', async () => {
    const res = await server.api('/api/actions', {
      json: {
        _id: 'every5',
        name: 'every 5 minutes',
        trigger: { type: 'CRON', cron: '*/5 * * * *', timezone: 'UTC' },
        code: 'log(input.schedule.scheduledFor)\nreturn input.schedule.scheduledFor',
      },
      token: admin,
    })
    expect(res.status, res.text).toBe(201)
    await tickActions(server.services, new Date('2030-01-01T00:02:00Z'))
    const state = await server.services.store.get('_action_state', 'every5')
    expect(state?.nextRun).toBe('2030-01-01T00:05:00.000Z')
    await tickActions(server.services, new Date('2030-01-01T00:04:59Z'))
    expect(await runsOf('every5')).toHaveLength(0)
    // Three ticks at once, as three instances on one database would: one claim wins.
    const due = new Date('2030-01-01T00:05:01Z')
    await Promise.all([1, 2, 3].map(() => tickActions(server.services, due)))
    await tickActions(server.services, due)
    const runs = await runsOf('every5')
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ trigger: 'CRON', status: 'ok', result: '2030-01-01T00:05:00.000Z' })
    expect((await server.services.store.get('_action_state', 'every5'))?.nextRun).toBe(
      '2030-01-01T00:10:00.000Z',
    )
  })
})

describe('EVENT actions', () => {
  it('runs exactly once per change, across a server restart', async () => {
    const res = await server.api('/api/actions', {
      json: {
        _id: 'on-order',
        name: 'on order',
        trigger: { type: 'EVENT', collection: 'orders', operations: ['create', 'delete'] },
        code: "await db.create('seen', { _id: input.event.operation + '-' + input.event.id })\nreturn input.event.id",
      },
      token: admin,
    })
    expect(res.status, res.text).toBe(201)
    await tickActions(server.services, new Date())
    await server.api('/api/data/orders', { json: { _id: 'o1', n: 1 }, token: admin })
    await server.api('/api/data/orders/o1', { method: 'PATCH', json: { n: 2 }, token: admin })
    await server.api('/api/data/other', { json: { _id: 'x' }, token: admin })
    await tickActions(server.services, new Date())
    await tickActions(server.services, new Date())
    await server.api('/api/data/orders', { json: { _id: 'o2', n: 1 }, token: admin })
    await server.api('/api/data/orders/o1', { method: 'DELETE', token: admin })
    // Restart before those two changes are handled: the cursor is in the database.
    await server.close()
    await boot()
    await tickActions(server.services, new Date())
    await tickActions(server.services, new Date())
    const runs = await runsOf('on-order')
    expect(runs.map((r) => r.status)).toEqual(['ok', 'ok', 'ok'])
    expect(runs.map((r) => r.result).sort()).toEqual(['o1', 'o1', 'o2'])
    const seen = await server.api('/api/data/seen', { token: admin })
    expect((seen.body as Array<{ _id: string }>).map((d) => d._id).sort()).toEqual([
      'create-o1',
      'create-o2',
      'delete-o1',
    ])
  })
})
