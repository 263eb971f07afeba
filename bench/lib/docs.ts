/**
 * The documents every benchmark uses: ~500 bytes of JSON each once the server adds its meta fields,
 * with nested objects and arrays like a real customer record, deterministic per index so every run and
 * every contender sees the same data.
 */
const CITIES = ['Amsterdam', 'Berlin', 'Lisbon', 'Oslo', 'Prague', 'Dublin', 'Vienna', 'Madrid']
const STATUSES = ['lead', 'active', 'paused', 'churned']
const TAGS = ['vip', 'newsletter', 'b2b', 'trial', 'partner', 'invoice', 'eu', 'priority']
const NOTE =
  'Prefers email. Renewal discussed in the last call; send the updated price list and the onboarding guide.'

export const docId = (i: number): string => `doc-${String(i).padStart(6, '0')}`

export function makeBody(i: number): Record<string, unknown> {
  return {
    name: `Customer ${i}`,
    email: `customer${i}@example.com`,
    status: STATUSES[i % STATUSES.length],
    score: ((i * 7919) % 1000) / 10,
    active: i % 3 !== 0,
    tags: [TAGS[i % TAGS.length], TAGS[(i * 3 + 1) % TAGS.length]],
    address: {
      street: `${(i % 997) + 1} Market Street`,
      city: CITIES[i % CITIES.length],
      zip: String(10000 + ((i * 31) % 89999)),
      geo: { lat: 52 + (i % 100) / 1000, lng: 4 + (i % 77) / 1000 },
    },
    orders: { count: i % 50, total: Math.round(((i * 131) % 100000) * 100) / 100, currency: 'EUR' },
    notes: NOTE,
  }
}
