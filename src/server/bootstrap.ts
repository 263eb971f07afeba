/**
 * First start on an empty data dir: the admin user (password from MOMENTUM_ADMIN_PASSWORD or random,
 * printed once by main.ts), the `admins` group holding `*:*`, the known settings, and — unless
 * MOMENTUM_SEED=none — the sample data set from seed.ts so a newcomer sees a living console.
 * "Empty" means no users collection yet, so a restart never re-seeds or resets a password.
 *
 * The admin's password is stored BEFORE the documents: if the first start dies in between, the next
 * start still sees no users and bootstraps again (with a fresh password), instead of finding an admin
 * nobody can log in as. The sample accounts get the easy, documented passwords (`alice-password`)
 * only when the server listens on a loopback address; on any other address they get random ones,
 * which main.ts prints once with the admin's, so a demo exposed to a network has no known login.
 */
import crypto from 'node:crypto'
import { checkPassword } from '../shared/password-policy'
import { hashPassword, PASSWORD_SECRET } from './auth/passwords'
import { sampleWrites } from './seed'
import { seedSampleFiles } from './seed-files'
import type { Services } from './services'
import type { Write } from './store/types'

export interface BootstrapResult {
  adminCreated: boolean
  adminPassword?: string
  /** Sample accounts created on this start, user → password. */
  samplePasswords?: Record<string, string>
}

export const SAMPLE_USERS = ['alice', 'bob', 'carol'] as const

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

export const ADMIN_USER = 'admin'
export const ADMIN_GROUP = 'admins'

export async function bootstrap(services: Services): Promise<BootstrapResult> {
  const { store, config } = services
  if ((await store.list('users', { limit: 1 })).total > 0) return { adminCreated: false }

  const adminPassword = config.adminPassword ?? crypto.randomBytes(12).toString('base64url')
  const writes: Write[] = [
    {
      op: 'create',
      collection: 'groups',
      id: ADMIN_GROUP,
      body: { name: 'Administrators', description: 'Full access to everything', permissions: ['*:*'] },
    },
    {
      op: 'create',
      collection: 'users',
      id: ADMIN_USER,
      body: { name: 'Administrator', email: 'admin@example.com', groups: [ADMIN_GROUP], totp: false },
    },
    ...defaultSettings(),
  ]
  if (config.seed === 'sample') writes.push(...sampleWrites())
  const samplePasswords: Record<string, string> = {}
  if (config.seed === 'sample') {
    const known = isLoopbackHost(config.host)
    for (const user of SAMPLE_USERS) {
      samplePasswords[user] = known ? `${user}-password` : crypto.randomBytes(12).toString('base64url')
    }
  }
  // Every password set here follows the shared policy too (issue 10 #11): a weak
  // MOMENTUM_ADMIN_PASSWORD stops the first start with the reason, rather than guarding the console
  // with it; the documented sample passwords are chosen to pass (a test holds them to it).
  const adminProblem = await checkPassword(adminPassword, [ADMIN_USER, 'admin@example.com'])
  if (adminProblem)
    throw new Error(`MOMENTUM_ADMIN_PASSWORD is refused by the password policy: ${adminProblem}`)
  for (const [user, password] of Object.entries(samplePasswords)) {
    const problem = await checkPassword(password, [user, `${user}@example.com`])
    if (problem)
      throw new Error(`The sample password of ${user} is refused by the password policy: ${problem}`)
  }
  // Secrets first: a start that dies before the documents commit leaves no password-less admin.
  // Claimed, not set: several instances starting at once on one empty PostgreSQL database must not
  // each print a password of their own while only one set of documents wins (docs/operating/postgres.md).
  const hash = await hashPassword(adminPassword)
  if ((await store.secrets.claim(PASSWORD_SECRET, ADMIN_USER, hash)) !== hash) {
    if (await usersAppear(services)) return { adminCreated: false }
    // Nobody finished the first start within the wait: an earlier start died in between. Take over.
    await store.secrets.set(PASSWORD_SECRET, ADMIN_USER, hash)
  }
  for (const [user, password] of Object.entries(samplePasswords)) {
    await store.secrets.set(PASSWORD_SECRET, user, await hashPassword(password))
  }
  await store.writeMany(writes, { user: null })
  if (config.seed === 'sample') await seedSampleFiles(services)
  services.serverLog('INFO', 'First start: created the admin user and default settings')
  return { adminCreated: true, adminPassword, samplePasswords }
}

/** How long an instance that lost the first-start claim waits for the winner's documents. */
export const FIRST_START_WAIT_MS = 15_000

async function usersAppear(services: Services): Promise<boolean> {
  const until = Date.now() + FIRST_START_WAIT_MS
  while (Date.now() < until) {
    if ((await services.store.list('users', { limit: 1 })).total > 0) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

function defaultSettings(): Write[] {
  const values: Record<string, unknown> = {
    title: 'Momentum',
    description: 'Back-office console',
    version: '0.1.0',
    logo: '',
    contact: '',
    public_url: '',
    // Empty: the installed app's names follow the title until someone sets them (issue 11).
    pwa: { name: '', short_name: '' },
    theme: { background: '#f6f7f9', primary: '#1f6feb', accent: '#f59e0b', darkMode: false },
  }
  return Object.entries(values).map(([id, value]) => ({
    op: 'create',
    collection: 'settings',
    id,
    body: { value },
  }))
}
