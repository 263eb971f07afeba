/**
 * A real network hop between the browser and the e2e server, for the sync scenarios that need to
 * disturb the engine's websocket (kill it, refuse reconnects, duplicate / reorder / drop `changes`
 * frames). Playwright's routeWebSocket cannot do this: it patches `WebSocket` in pages only, and the
 * console's sync engine runs in a dedicated Worker whose socket it never sees. So the page opens the
 * console through this proxy's origin instead: HTTP is piped through unchanged (context.route still
 * sees the worker's fetches), websockets are relayed frame by frame with a hook on the engine's one
 * (`url=sync`); the page's own realtime socket is relayed untouched.
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
  /** Engine sockets open right now. */
  engineSockets(): number
  /** Cuts every open engine socket, both sides, as a dropped connection would. */
  killEngineSockets(): void
  close(): Promise<void>
}

const isEngineSocket = (url: string) => new URL(url, 'http://x').searchParams.get('url') === 'sync'

export async function startSocketProxy(target: string): Promise<SocketProxy> {
  const upstream = new URL(target)
  const open = new Set<{ client: WebSocket; server: WebSocket }>()
  const sockets = new Set<Socket>()

  const httpServer = http.createServer((req, res) => {
    if (proxy.offline && (req.url ?? '').startsWith('/api')) {
      req.socket.destroy()
      return
    }
    const up = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers)
        upRes.pipe(res)
      },
    )
    up.on('error', () => res.destroy())
    req.pipe(up)
  })
  httpServer.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })

  const wss = new WebSocketServer({ noServer: true })
  const proxy: SocketProxy = {
    url: '',
    via: (server) => ({ ...server, ui: `${proxy.url}/ui` }),
    refuse: false,
    hook: null,
    offline: false,
    engineSockets: () => [...open].filter((p) => p.client.readyState === WebSocket.OPEN).length,
    killEngineSockets() {
      for (const p of open) {
        p.client.terminate()
        p.server.terminate()
      }
      open.clear()
    },
    async close() {
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
        if (server.readyState === WebSocket.OPEN) server.send(text)
        else queued.push(text)
      })
      server.on('message', (data) => {
        const text = data.toString()
        const frames = engine && proxy.hook ? proxy.hook(text) : [text]
        for (const f of frames) if (client.readyState === WebSocket.OPEN) client.send(f)
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
