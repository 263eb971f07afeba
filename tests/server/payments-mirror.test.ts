/**
 * Transactions reach the console's mirror (the sync pull) for whoever may read them over REST: the
 * menu key `payments:r` (SPEC §6) as well as `transactions:r`, so the Transactions screen reads its
 * list offline. Real server on loopback.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteServer } from '../helpers/suite-server'

describe('the transactions mirror', () => {
  const server = suiteServer()
  beforeAll(async () => {
    await server.api('/api/products', {
      json: { _id: 'pen', name: 'Pen', price: 300, currency: 'EUR' },
      token: server.admin,
    })
  })

  it('pulls transactions for payments:r and transactions:r, not for other staff', async () => {
    const made = (await server.api('/api/transactions/init/pen', { json: {} })).body as {
      transaction: { _id: string }
    }
    const pulled = async (token: string) => {
      const res = await server.api('/api/sync?cursor=0&limit=1000', { token })
      expect(res.status).toBe(200)
      return (res.body as { changes: Array<{ collection: string; id: string }> }).changes
        .filter((c) => c.collection === 'transactions')
        .map((c) => c.id)
    }
    for (const permission of ['payments:r', 'transactions:r']) {
      const token = await server.userWith(`reader-${permission.split(':')[0]}`, [permission])
      expect((await server.api(`/api/transactions/${made.transaction._id}`, { token })).status).toBe(200)
      expect(await pulled(token), permission).toContain(made.transaction._id)
    }
    const other = await server.userWith('stocker', ['products:r'])
    expect(await pulled(other)).toEqual([])
  })
})
