/**
 * A real network hop between the browser and the e2e server, for the sync scenarios that need to
 * disturb the engine's websocket (kill it, refuse reconnects, duplicate / reorder / drop `changes`
 * frames). Playwright's routeWebSocket cannot do this: it patches `WebSocket` in pages only, and the
 * console's sync engine runs in a dedicated Worker whose socket it never sees. So the page opens the
 * console through this proxy's origin instead: HTTP is piped through unchanged (context.route still
 * sees the worker's fetches), websockets are relayed frame by frame with a hook on the engine's one
 * (`url=sync`); the page's own realtime socket is relayed untouched.
 *
 * It is also the fault injector of the chaos soak (tests/soak) and of the offline scenarios: every
 * part of the browser (page, its workers, the service worker) reaches the server only through it, so
 * `offline` is a real cut, `stall` a link gone silent, `delayMs` a slow one, and `dropAfterApply` the
 * worst case for exactly-once: the write reaches the server and is applied, its answer is thrown away.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
import type { E2EServer } from './fixtures'

/** What to deliver to the engine for one server frame: usually [frame], [] to drop it, more to add. */
export type FrameHook = (frame: string) => string[]

export interface SocketProxy {
  /** The console's origin through the proxy, e.g. http://127.0.0.1:41000 */
  url: string
  /** `server` with `ui` pointing through the proxy, for openLoggedIn. */
  via(server: E2EServer): E2EServer
  /** true: the engine's socket is refused (closed at once) until set back to false. */
  refuse: boolean
  /** Rewrites server → engine frames; null relays them as they are. */
  hook: FrameHook | null
  /**
   * true: the server is unreachable for every part of the browser (page, workers, service worker):
   * API requests and websockets are cut at once; the console's static files still pass (the offline
   * start itself comes from the service worker's cache either way).
   */
  offline: boolean
  /**
   * true: API requests and websocket frames are held (nothing reaches the server, nothing comes back)
   * until set back to false, when the held ones go on, or `offline` cuts them.
   */
  stall: boolean
  /** Every API request waits this long before it is forwarded (a slow link). */
  delayMs: number
  /**
   * Requests for which this answers true are forwarded and answered by the server in full, then the
   * browser's connection is destroyed instead of getting the answer (a response lost after apply).
   */
  dropAfterApply: ((method: string, url: string) => boolean) | null
  /** Every API request seen: what the browser asked and what happened to the answer. */
  log: ProxyLogEntry[]
  /** Points the proxy at another server (a restarted one on a new port, or another instance). */
  retarget(target: string): void
  /** Engine sockets open right now. */
  engineSockets(): number
  /** Cuts every open engine socket, both sides, as a dropped connection would. */
  killEngineSockets(): void
  close(): Promise<void>
}

export interface ProxyLogEntry {
  method: string
  url: string
  /** The server's status, or 0 when the request never reached it (cut). */
  status: number
  /** 'passed' | 'cut' (never reached the server) | 'dropped' (applied, answer lost). */
  fate: 'passed' | 'cut' | 'dropped'
}

const isEngineSocket = (url: string) => new URL(url, 'http://x').searchParams.get('url') === 'sync'

export async function startSocketProxy(target: string): Promise<SocketProxy> {
  let upstream = new URL(target)
  const open = new Set<{ client: WebSocket; server: WebSocket }>()
  const sockets = new Set<Socket>()

  // Callbacks waiting for the stall to end (or the cut to begin).
  let stalled: Array<() => void> = []
  const whenFlowing = (go: () => void) => {
    if (proxy.stall && !proxy.offline) stalled.push(go)
    else go()
  }

  const httpServer = http.createServer((req, res) => {
    const url = req.url ?? ''
    if (!url.startsWith('/api')) return forward(req, res, false)
    req.pause()
    const start = () =>
      whenFlowing(() => {
        if (proxy.offline) {
          proxy.log.push({ method: req.method ?? '', url, status: 0, fate: 'cut' })
          req.socket.destroy()
          return
        }
        req.resume()
        forward(req, res, proxy.dropAfterApply?.(req.method ?? '', url) ?? false)
      })
    if (proxy.delayMs > 0) setTimeout(start, proxy.delayMs)
    else start()
  })
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, drop: boolean) => {
    const url = req.url ?? ''
    const up = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (upRes) => {
        const status = upRes.statusCode ?? 502
        if (url.startsWith('/api')) {
          proxy.log.push({ method: req.method ?? '', url, status, fate: drop ? 'dropped' : 'passed' })
        }
        if (drop) {
          // Read the whole answer (the server finishes its work), then break the browser's connection.
          upRes.resume()
          upRes.on('end', () => req.socket.destroy())
          return
        }
        res.writeHead(status, upRes.headers)
        upRes.pipe(res)
      },
    )
    up.on('error', () => res.destroy())
    req.pipe(up)
  }
  httpServer.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })

  const wss = new WebSocketServer({ noServer: true })
  const release = () => {
    const waiting = stalled
    stalled = []
    for (const go of waiting) go()
  }
  let offline = false
  let stall = false
  const proxy: SocketProxy = {
    url: '',
    via: (server) => ({ ...server, ui: `${proxy.url}/ui` }),
    refuse: false,
    hook: null,
    get offline() {
      return offline
    },
    set offline(value: boolean) {
      const cut = value && !offline
      offline = value
      // A cut breaks every open websocket too (the page's realtime one included), and what was held.
      if (cut) for (const c of wss.clients) c.terminate()
      if (value) release()
    },
    get stall() {
      return stall
    },
    set stall(value: boolean) {
      stall = value
      if (!value) release()
    },
    delayMs: 0,
    dropAfterApply: null,
    log: [],
    retarget(next) {
      upstream = new URL(next)
    },
    engineSockets: () => [...open].filter((p) => p.client.readyState === WebSocket.OPEN).length,
    killEngineSockets() {
      for (const p of open) {
        p.client.terminate()
        p.server.terminate()
      }
      open.clear()
    },
    async close() {
      proxy.stall = false
      proxy.killEngineSockets()
      for (const c of wss.clients) c.terminate()
      wss.close()
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => httpServer.close(() => resolve()))
    },
  }

  httpServer.on('upgrade', (req, socket, head) => {
    const engine = isEngineSocket(req.url ?? '')
    if ((engine && proxy.refuse) || proxy.offline) {
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      const server = new WebSocket(`ws://${upstream.host}${req.url}`)
      const pair = { client, server }
      if (engine) open.add(pair)
      const queued: string[] = []
      server.on('open', () => {
        for (const m of queued.splice(0)) server.send(m)
      })
      client.on('message', (data) => {
        const text = data.toString()
        whenFlowing(() => {
          if (server.readyState === WebSocket.OPEN) server.send(text)
          else queued.push(text)
        })
      })
      server.on('message', (data) => {
        const text = data.toString()
        whenFlowing(() => {
          const frames = engine && proxy.hook ? proxy.hook(text) : [text]
          for (const f of frames) if (client.readyState === WebSocket.OPEN) client.send(f)
        })
      })
      const end = () => {
        open.delete(pair)
        client.terminate()
        server.terminate()
      }
      client.on('close', end)
      server.on('close', end)
      client.on('error', end)
      server.on('error', end)
    })
  })

  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`
  return proxy
}
