/**
 * Starts the real server on a free loopback port with a temp data dir (ARCHITECTURE §4). Every server
 * suite uses this, so tests exercise the same code path as `npm start`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { configFromEnv, type ServerConfig } from '../../src/server/config'
import { type RunningServer, startServer } from '../../src/server/server'

export const ADMIN_PASSWORD = 'admin-test-password'

export interface TestServer extends RunningServer {
  dataDir: string
  /** fetch against the server: path like '/api/...', JSON body when `json` is given. */
  api(pathname: string, init?: ApiInit): Promise<ApiResponse>
  login(username?: string, password?: string): Promise<string>
  /** Creates a user (with password) in the given groups, returns a session token for them. */
  userWith(username: string, permissions: string[] | null): Promise<string>
}

export interface ApiInit {
  method?: string
  json?: unknown
  body?: BodyInit
  token?: string
  headers?: Record<string, string>
}

export interface ApiResponse {
  status: number
  headers: Headers
  body: unknown
  text: string
}

/** The test servers' configuration: loopback, a free port, everything under `dataDir`, no seed. */
export function testConfig(dataDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    ...configFromEnv({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    staticDir: path.join(dataDir, 'static'),
    uiDir: path.join(dataDir, 'no-ui'),
    adminPassword: ADMIN_PASSWORD,
    seed: 'none',
    quiet: true,
    ...overrides,
  }
}

export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-test-'))
  const server = await startServer(testConfig(dataDir, overrides))
  const api = async (pathname: string, init: ApiInit = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...init.headers }
    if (init.token) headers.authorization = `Bearer ${init.token}`
    let body = init.body
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(init.json)
    }
    const res = await fetch(server.url + pathname, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, headers: res.headers, body: parsed, text }
  }
  const login = async (username = 'admin', password = ADMIN_PASSWORD) => {
    const res = await api('/api/auth/login', { json: { username, password } })
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${res.text}`)
    return (res.body as { token: string }).token
  }
  return {
    ...server,
    dataDir,
    api,
    login,
    async userWith(username, permissions) {
      const { store } = server.services
      const groups: string[] = []
      if (permissions) {
        await store.write(
          { op: 'put', collection: 'groups', id: `g-${username}`, body: { name: username, permissions } },
          { user: null },
        )
        groups.push(`g-${username}`)
      }
      await store.write(
        {
          op: 'put',
          collection: 'users',
          id: username,
          body: { name: username, email: `${username}@example.com`, groups },
        },
        { user: null },
      )
      const { hashPassword, PASSWORD_SECRET } = await import('../../src/server/auth/passwords')
      await store.secrets.set(PASSWORD_SECRET, username, await hashPassword(`${username}-pw`))
      return login(username, `${username}-pw`)
    },
    async close() {
      await server.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
