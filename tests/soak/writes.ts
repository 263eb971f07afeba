/**
 * One write of a soak tab, chosen at random: a create in its device's collection (40 %), a patch of a
 * shared document (35 %, adding a field named for the op, so a lost or invented patch shows), a
 * settings put (10 %) and a delete of one of its own earlier creates (15 %, a patch when it has none).
 * Every write goes through the console's mutation API, the one the screens use.
 */
import type { Page } from '@playwright/test'
import { mutate } from '../e2e/pages/sync-panel'
import { ack, type Device } from './harness'
import type { Op } from './oplog'
import type { Rand } from './prng'

export const SHARED = 'data/soak-shared'
export const SHARED_DOCS = ['s0', 's1', 's2', 's3', 's4', 's5']

/** Makes one write and says how it was acknowledged; `mine` holds the tab's acknowledged creates. */
export async function tabWrite(
  page: Page,
  device: Device,
  tab: number,
  rand: Rand,
  id: string,
  mine: string[],
): Promise<Op> {
  const r = rand()
  const actor = `${device.name}/${tab}`
  if (r < 0.4) {
    const op: Op = { id, actor, kind: 'create', collection: device.collection, doc: `d${id}`, ack: 'unknown' }
    op.ack = await ack(mutate(page, 'create', device.collection, op.doc, { n: id, by: actor }))
    if (op.ack === 'acked') mine.push(op.doc)
    return op
  }
  if (r >= 0.75 && r < 0.85) {
    // Settings ids of this device only: the device's writes queue in order in its one outbox, so a
    // put never races another device's (that would be a conflict for the user to decide).
    const doc = `soak_${device.name}_${rand.int(0, 2)}`
    const value = `v${id}`
    const op: Op = { id, actor, kind: 'settings', collection: 'settings', doc, value, ack: 'unknown' }
    op.ack = await ack(mutate(page, 'put', 'settings', doc, { value }))
    return op
  }
  if (r < 0.75 || mine.length === 0) {
    const doc = rand.pick(SHARED_DOCS)
    const op: Op = { id, actor, kind: 'patch', collection: SHARED, doc, ack: 'unknown' }
    op.ack = await ack(mutate(page, 'patch', SHARED, doc, { [`op_${id}`]: 1 }))
    return op
  }
  const doc = mine.splice(rand.int(0, mine.length - 1), 1)[0]!
  const op: Op = { id, actor, kind: 'delete', collection: device.collection, doc, ack: 'unknown' }
  op.ack = await ack(mutate(page, 'delete', device.collection, doc))
  return op
}
