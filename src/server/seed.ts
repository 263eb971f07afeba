/**
 * The sample data set of a first start: a few users and groups, products, discounts, a few
 * transactions (seed-payments.ts), a form and a report (seed-forms.ts), a template of each kind and
 * a read-only action (seed-content.ts), a `contacts` data collection of a few hundred documents and
 * some log lines. Storage files are bytes, not documents: seed-files.ts, run by bootstrap after these.
 * Deterministic (a seeded generator), so screenshots and docs stay stable.
 */
import { sampleContent } from './seed-content'
import { sampleFormAndReport } from './seed-forms'
import { SAMPLE_CODE_USES, sampleTransactions } from './seed-payments'
import type { Write } from './store/types'

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elif', 'Femi', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kai', 'Lena']
const LAST = ['Novak', 'Okafor', 'Silva', 'Tanaka', 'Weber', 'Haddad', 'Kowalski', 'Lindqvist', 'Moreau']
const CITIES = ['Lisbon', 'Lagos', 'Osaka', 'Berlin', 'Austin', 'Kraków', 'Lyon', 'Toronto']

/** A small seeded generator (LCG): the same sample data on every first start. */
export function rng(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296
    return s / 4294967296
  }
}

export const SAMPLE_CONTACTS = 300

export function sampleWrites(): Write[] {
  const rand = rng(42)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!
  const writes: Write[] = [
    {
      op: 'create',
      collection: 'groups',
      id: 'staff',
      body: {
        name: 'Staff',
        description: 'Day-to-day operations',
        permissions: ['data:crud', 'logs:r', 'products:cru', 'discounts:cru', 'forms:r'],
      },
    },
    {
      op: 'create',
      collection: 'groups',
      id: 'viewers',
      body: {
        name: 'Viewers',
        description: 'Read-only access',
        // The client log only: the server log holds security events (addresses, failed logins).
        permissions: ['data:r', 'logs/client:r', 'products:r'],
      },
    },
    {
      op: 'create',
      collection: 'users',
      id: 'alice',
      body: { name: 'Alice Novak', email: 'alice@example.com', groups: ['staff'], totp: false },
    },
    {
      op: 'create',
      collection: 'users',
      id: 'bob',
      body: { name: 'Bob Okafor', email: 'bob@example.com', groups: ['viewers'], totp: false },
    },
    {
      op: 'create',
      collection: 'users',
      id: 'carol',
      body: { name: 'Carol Silva', email: 'carol@example.com', groups: [], totp: false },
    },
    {
      op: 'create',
      collection: 'products',
      id: 'starter',
      body: { name: 'Starter plan', price: 900, currency: 'EUR', active: true },
    },
    {
      op: 'create',
      collection: 'products',
      id: 'team',
      body: { name: 'Team plan', price: 2900, currency: 'EUR', active: true },
    },
    {
      op: 'create',
      collection: 'products',
      id: 'enterprise',
      body: { name: 'Enterprise plan', price: 9900, currency: 'EUR', active: false },
    },
    {
      op: 'create',
      collection: 'discounts',
      id: 'WELCOME10',
      body: { percent: 10, products: ['starter', 'team'], expires: '2027-12-31', uses: SAMPLE_CODE_USES },
    },
    {
      op: 'create',
      collection: 'discounts',
      id: 'TEAM25',
      body: { percent: 25, products: ['team'], expires: '2027-06-30' },
    },
  ]
  for (let i = 1; i <= SAMPLE_CONTACTS; i++) {
    const first = pick(FIRST)
    const last = pick(LAST)
    writes.push({
      op: 'create',
      collection: 'data/contacts',
      id: `contact-${String(i).padStart(4, '0')}`,
      body: {
        name: `${first} ${last}`,
        email: `${first}.${last}${i}@example.com`.toLowerCase(),
        city: pick(CITIES),
        age: 20 + Math.floor(rand() * 50),
        vip: rand() < 0.15,
        address: {
          street: `${1 + Math.floor(rand() * 200)} Main St`,
          zip: String(10000 + Math.floor(rand() * 89999)),
        },
        tags: rand() < 0.5 ? ['customer'] : ['lead'],
      },
    })
  }
  writes.push(...sampleTransactions(), ...sampleFormAndReport(), ...sampleContent())
  const levels = ['INFO', 'INFO', 'LOG', 'WARN', 'ERROR', 'DEBUG'] as const
  const start = Date.UTC(2026, 0, 1)
  for (let i = 0; i < 40; i++) {
    writes.push({
      op: 'create',
      collection: 'logs/client',
      body: {
        time: new Date(start + i * 60_000).toISOString(),
        level: pick(levels),
        log: `Sample client event ${i + 1}`,
        ctx: { sample: true },
      },
    })
  }
  return writes
}
