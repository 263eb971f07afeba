/**
 * The chaos soak's end check (tests/soak/oplog.ts) must catch what it exists for: a write applied
 * twice, an acknowledged write lost, and a write nobody made.
 */
import { describe, expect, it } from 'vitest'
import { type Change, checkOps, type Op } from '../soak/oplog'

const create = (doc: string, ack: Op['ack'] = 'acked'): Op => ({
  id: doc,
  actor: 'desk/0',
  kind: 'create',
  collection: 'data/c',
  doc,
  ack,
})
const upsert = (id: string, key: string, rev = 1): Change => ({
  collection: 'data/c',
  id,
  op: 'upsert',
  rev,
  doc: { _id: id },
  idempotencyKey: key,
})

describe('soak operation log check', () => {
  it('passes when every acknowledged write landed once', () => {
    const final = new Map([['data/c', [{ _id: 'd1' }]]])
    expect(checkOps([create('d1')], [upsert('d1', 'k1')], final)).toEqual([])
  })

  it('reports a write applied twice', () => {
    const final = new Map([['data/c', [{ _id: 'd1' }]]])
    const problems = checkOps([create('d1')], [upsert('d1', 'k1'), upsert('d1', 'k1', 2)], final)
    expect(problems).toContain('idempotency key k1 applied 2 times')
  })

  it('reports an acknowledged write that never arrived, and accepts an unknown one either way', () => {
    const final = new Map([['data/c', [] as Array<Record<string, unknown>>]])
    expect(checkOps([create('d1'), create('d2', 'unknown')], [], final)).toEqual([
      'acknowledged create of data/c/d1 never applied',
      'data/c/d1 missing at the end',
    ])
  })

  it('reports a document and a patch field nobody wrote', () => {
    const final = new Map([['data/c', [{ _id: 'ghost', op_x: 1 }]]])
    expect(checkOps([], [upsert('ghost', 'k9')], final)).toEqual([
      'data/c/ghost exists but was never written',
      'data/c/ghost.op_x was never written',
    ])
  })
})
