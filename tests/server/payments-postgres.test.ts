/**
 * A discount code's use count on PostgreSQL with two server instances on one database: fifty parallel
 * checkouts of a code limited to ten, spread over both instances, give exactly ten (the count is a
 * conditional write in the same store transaction as the record, payments/checkout.ts). Skipped, like
 * every PostgreSQL suite, when no PostgreSQL can be had (tests/helpers/postgres.ts).
 */
import { beforeAll, expect, it } from 'vitest'
import { PAYMENT_TEXT } from '../../src/shared/texts'
import { describePostgres, serverPairOnPostgres } from '../helpers/postgres-suite'

describePostgres('discount code limits on two instances sharing PostgreSQL', () => {
  const pair = serverPairOnPostgres()

  beforeAll(async () => {
    const { a } = pair
    const admin = await a.login()
    await a.api('/api/products', {
      json: { _id: 'pen', name: 'Pen', price: 300, currency: 'EUR' },
      token: admin,
    })
    await a.api('/api/discounts', { json: { _id: 'PG10', percent: 50, maxUses: 10 }, token: admin })
  })

  it('gives exactly ten of fifty parallel checkouts the code', async () => {
    const { a, b } = pair
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? a : b).api('/api/transactions/init/pen', { json: { code: 'PG10' } }),
      ),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(10)
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.body).toMatchObject({ message: PAYMENT_TEXT.codeUsedUp('PG10') })
    }
    expect(await a.services.store.get('discounts', 'PG10')).toMatchObject({ uses: 10 })
    const made = await a.services.store.list('transactions', { filter: { 'discount.code': 'PG10' } })
    expect(made.total).toBe(10)
  })
})
