/**
 * What became of a queued write (src/app/data/write-outcome.ts), read from the engine's own database
 * against the real server: pending while its outbox entry waits (offline), accepted once replayed,
 * refused with the server's words when the server says no. The save toast turns on exactly this
 * (feedback/notify.ts, issue 36: green only for what the server accepted).
 */
import 'fake-indexeddb/auto'
import { expect, test } from 'vitest'
import { outcomeIn, type WriteOutcome } from '../../src/app/data/write-outcome'
import { MomentumDb } from '../../src/db/schema'
import type { DbPort } from '../../src/sync/ports'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle } from './harness'

const server = suiteServer()

function capturing(): DbPort & { db: () => MomentumDb } {
  let opened: MomentumDb | null = null
  return {
    async open(name) {
      opened = new MomentumDb(name)
      await opened.open()
      return opened
    },
    db: () => opened!,
  }
}

/** The outcome, or 'pending' while it is not known within a few event-loop turns. */
async function soon(outcome: Promise<WriteOutcome>): Promise<WriteOutcome | 'pending'> {
  const wait = new Promise<'pending'>((r) => setTimeout(() => r('pending'), 200))
  return Promise.race([outcome, wait])
}

test('a queued write is pending offline, accepted once the server took it', async () => {
  const token = await server.userWith('outcome-ok', ['products:*'])
  const port = capturing()
  const h = harness(server, 'outcome-ok', token, port)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('products', { name: 'Pen' }, 'pen')
  const outcome = outcomeIn(port.db(), { collection: 'products', id: 'pen' })
  expect(await soon(outcome)).toBe('pending')
  h.net.offline = false
  await settle(engine)
  expect(await outcome).toEqual({ kind: 'accepted' })
  expect(await server.services.store.get('products', 'pen')).toMatchObject({ name: 'Pen' })
  await engine.close()
})

test("a refused write settles as refused, with the server's words", async () => {
  // groups:* without *:* : a group granting everything is refused (auth/delegation.ts).
  const token = await server.userWith('outcome-no', ['groups:*'])
  const port = capturing()
  const h = harness(server, 'outcome-no', token, port)
  const engine = await h.open()
  await settle(engine)
  h.net.offline = true
  await engine.mutate.create('groups', { name: 'All', permissions: ['*:*'] }, 'all-of-it')
  const outcome = outcomeIn(port.db(), { collection: 'groups', id: 'all-of-it' })
  h.net.offline = false
  await settle(engine)
  const settled = await outcome
  expect(settled.kind).toBe('refused')
  expect('message' in settled && settled.message).toMatch(/grant permissions you do not have/)
  await engine.close()
})
