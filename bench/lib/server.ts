/**
 * Starts the REAL server as a child process, as tests/e2e/fixtures.ts does (`tsx src/server/main.ts`,
 * loopback, free port, temp data dir), after writing the benchmark documents straight into its SQLite
 * store with store.writeMany (the seed's path, and the fastest honest way to get 100,000 documents in).
 * It serves the console built by bench/lib/build.ts under /ui and the bench page as its Web root.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openSqliteStore } from '../../src/server/store/sqlite'
import type { Write } from '../../src/server/store/types'
import { ROOT } from './build'
import { docId, makeBody } from './docs'

export const ADMIN_PASSWORD = 'bench-admin-password'

export interface BenchServer {
  url: string
  dataDir: string
  pid: number
  login(): Promise<string>
  api(pathname: string, init?: { method?: string; json?: unknown; token?: string }): Promise<Response>
  stop(): Promise<void>
}

/** Writes `count` documents into data/{collection}, ids docId(1..count), 10,000 per transaction. */
export async function prefill(dataDir: string, collections: Record<string, number>): Promise<void> {
  const store = openSqliteStore(path.join(dataDir, 'momentum.db'))
  for (const [collection, count] of Object.entries(collections)) {
    for (let start = 1; start <= count; start += 10_000) {
      const writes: Write[] = []
      for (let i = start; i < Math.min(start + 10_000, count + 1); i++) {
        writes.push({ op: 'create', collection: `data/${collection}`, id: docId(i), body: makeBody(i) })
      }
      await store.writeMany(writes, { user: null })
    }
  }
  await store.close()
}

export async function startServer(opts: {
  /** The console build and the Web root to serve; the server's defaults when left out. */
  uiDir?: string
  staticDir?: string
  collections: Record<string, number>
  /** Flags for node itself (bench/lib/profile-server.ts: --cpu-prof). */
  nodeArgs?: string[]
}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-bench-'))
  await prefill(dataDir, opts.collections)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    MOMENTUM_DATA: dataDir,
    MOMENTUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    MOMENTUM_QUIET: 'true',
    MOMENTUM_SEED: 'none',
  }
  if (opts.uiDir) env.MOMENTUM_UI_DIR = opts.uiDir
  if (opts.staticDir) env.MOMENTUM_STATIC_DIR = opts.staticDir
  // node itself with tsx as a loader (as tests/e2e/fixtures.ts does), not the tsx CLI: node's own flags
  // then reach the server, and stop() signals the server rather than a wrapper process around it.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', ...(opts.nodeArgs ?? []), 'src/server/main.ts'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000)
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
  const api: BenchServer['api'] = (pathname, init = {}) => {
    const headers: Record<string, string> = {}
    if (init.token) headers.authorization = `Bearer ${init.token}`
    if (init.json !== undefined) headers['content-type'] = 'application/json'
    return fetch(url + pathname, {
      method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    })
  }
  return {
    url,
    dataDir,
    pid: child.pid!,
    api,
    async login() {
      const res = await api('/api/auth/login', { json: { username: 'admin', password: ADMIN_PASSWORD } })
      if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`)
      return ((await res.json()) as { token: string }).token
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
