/**
 * Shared Playwright fixtures (ARCHITECTURE §4): each worker starts the REAL server as a child process
 * (`tsx src/server/main.ts`, the same entry as `npm run serve`) on a free loopback port with a temp data
 * dir, serving the built console from dist/ui (run `npx vite build` first), and kills it afterwards.
 * The seed is an option: `test.use({ seed: 'sample' })` in a spec file for the sample data set.
 *
 * `server.api` talks to the server directly (setup and assertions); the page talks to it through the
 * console like a person would.
 */

import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { writeConsoleLocal } from '../helpers/console-local'

export const ADMIN_PASSWORD = 'e2e-admin-password'
/** The password createUser gives `id`: long and uncommon enough for the password policy. */
export const passwordOf = (id: string): string => `${id}-pw-orbit-lantern`
const ROOT = path.resolve(import.meta.dirname, '../..')
// E2E_UI_DIR: test another build (e.g. `npx vite build --outDir /tmp/x`) without touching dist/ui.
const UI_DIR = process.env.E2E_UI_DIR ? path.resolve(process.env.E2E_UI_DIR) : path.join(ROOT, 'dist/ui')

export interface ApiResult<T = unknown> {
  status: number
  body: T
}

export interface E2EServer {
  /** e.g. http://127.0.0.1:43123 */
  url: string
  /** The console root, url + '/ui' */
  ui: string
  dataDir: string
  api<T = unknown>(
    pathname: string,
    init?: { method?: string; json?: unknown; token?: string },
  ): Promise<ApiResult<T>>
  login(username?: string, password?: string): Promise<string>
  /** Creates a group with these permissions and a user in it (password `passwordOf(id)`). */
  createUser(id: string, permissions: string[], name?: string): Promise<void>
}

interface WorkerFixtures {
  seed: 'none' | 'sample'
  /** Extra environment for the server process (feedback: the assistant spec points MOMENTUM_AI_URL at its peer). */
  serverEnv: Record<string, string>
  /**
   * Specs that change what every screen shows (site title, theme) name themselves here: a worker
   * option with its own value gets its own worker and so its own server, and no other spec sees it.
   */
  isolate: string
  server: E2EServer
}

/**
 * Also for specs that need a server of their own: `reuseDataDir` starts it on an existing data dir and
 * `stop(true)` keeps the dir, so a spec can stop the server, change its data and start it again (pass
 * `{ PORT }` to keep the console's origin).
 */
export async function startServer(
  seed: 'none' | 'sample',
  extraEnv: Record<string, string> = {},
  reuseDataDir?: string,
  /** How long a start may take (the chaos soak restarts servers on a machine it loads itself). */
  startMs = 30_000,
): Promise<{
  server: E2EServer
  stop: (keepData?: boolean) => Promise<void>
  /** SIGKILL, no shutdown (a crash or power cut); the data dir is kept for a restart (the chaos soak). */
  kill: () => Promise<void>
}> {
  // Another `vite build` may be rewriting dist/ui right now: give it a moment before giving up.
  for (let i = 0; i < 60 && !fs.existsSync(path.join(UI_DIR, 'index.html')); i++) {
    await new Promise((r) => setTimeout(r, 500))
  }
  if (!fs.existsSync(path.join(UI_DIR, 'index.html'))) {
    throw new Error('dist/ui is missing: run `npx vite build` before the e2e tests')
  }
  const dataDir = reuseDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-e2e-'))
  // A private copy of the build: a `vite build` run meanwhile (it empties dist/ui) cannot break this run.
  const uiDir = path.join(dataDir, 'ui-build')
  fs.cpSync(UI_DIR, uiDir, { recursive: true })
  // node itself with tsx as a loader, not the tsx CLI: the CLI runs the server in a child process of
  // its own, so a SIGKILL (the soak's crash, the start timeout below) ended only the wrapper and left
  // the real server running on the data dir, its websockets still open (docs/contributing/reliability.md).
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      MOMENTUM_DATA: dataDir,
      MOMENTUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      MOMENTUM_QUIET: 'true',
      // Every checkout here starts from 127.0.0.1: the per-IP limit on init would end the run early.
      MOMENTUM_CHECKOUT_INIT_LIMIT: '100000',
      MOMENTUM_SEED: seed,
      MOMENTUM_UI_DIR: uiDir,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a caller that tries again on the same data dir must not get two servers.
      child.kill('SIGKILL')
      reject(new Error(`server did not start in ${startMs / 1000} s:\n${output}`))
    }, startMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const m = output.match(/Momentum Console: (http:\/\/[^\s]+?)\/ui\//)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before it was ready:\n${output}`))
    })
  })

  const api: E2EServer['api'] = async (pathname, init = {}) => {
    const headers: Record<string, string> = {}
    if (init.token) headers.authorization = `Bearer ${init.token}`
    if (init.json !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(url + pathname, {
      method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      // not JSON
    }
    return { status: res.status, body } as ApiResult<never>
  }
  const login = async (username = 'admin', password = ADMIN_PASSWORD) => {
    const res = await api<{ token: string }>('/api/auth/login', { json: { username, password } })
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.token
  }
  const server: E2EServer = {
    url,
    ui: `${url}/ui`,
    dataDir,
    api,
    login,
    async createUser(id, permissions, name) {
      const token = await login()
      const group = await api('/api/groups', { token, json: { _id: `g-${id}`, name: id, permissions } })
      if (group.status >= 300) throw new Error(`create group: ${group.status} ${JSON.stringify(group.body)}`)
      const user = await api('/api/users', {
        token,
        json: {
          _id: id,
          name: name ?? id,
          email: `${id}@example.com`,
          password: passwordOf(id),
          groups: [`g-${id}`],
        },
      })
      if (user.status >= 300) throw new Error(`create user: ${user.status} ${JSON.stringify(user.body)}`)
    },
  }
  const stop = async (keepData = false) => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
  }
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
  }
  return { server, stop, kill }
}

export const test = base.extend<object, WorkerFixtures>({
  seed: ['none', { scope: 'worker', option: true }],
  serverEnv: [{}, { scope: 'worker', option: true }],
  isolate: ['', { scope: 'worker', option: true }],
  server: [
    async ({ seed, serverEnv, isolate: _isolate }, use) => {
      const { server, stop } = await startServer(seed, serverEnv)
      await use(server)
      await stop()
    },
    { scope: 'worker' },
  ],
})

export { expect }

/** Stores a session token the way the console does (IndexedDB), then opens `path`: a logged-in start. */
export async function openLoggedIn(
  page: Page,
  server: E2EServer,
  token: string,
  pathname = '/',
): Promise<void> {
  await page.goto(`${server.ui}/login`)
  await storeLocal(page, { token })
  await page.goto(`${server.ui}${pathname}`)
}

/** Writes keys of the console's local state from a page of its origin; null deletes a key. */
export function storeLocal(page: Page, values: Record<string, unknown>): Promise<void> {
  return writeConsoleLocal(page, values)
}
