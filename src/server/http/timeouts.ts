/**
 * HTTP transport limits of the node server under Fastify (docs/decisions/security.md, "Sockets, push
 * and transport"). Fastify turns node's request timeout off and sets no socket timeout, so a client
 * that sends headers and then trickles (or never sends) its body held a connection and its parser
 * forever. Here:
 *
 * - headers must be complete within HEADERS_TIMEOUT_MS (node's headersTimeout);
 * - a request BODY that stops arriving for BODY_IDLE_TIMEOUT_MS is answered 408 and the connection
 *   closed: an inactivity timeout, not one on the whole request, so a steady upload over a slow link
 *   always finishes however long it takes;
 * - REQUEST_MAX_MS bounds the whole request (headers and body) for a body trickled just under the idle
 *   timeout;
 * - an idle keep-alive connection is closed as before (Fastify's keepAliveTimeout).
 *
 * Responses are never cut: a handler that takes long (the assistant waiting on its model) or a slow
 * reader of a download leaves the socket idle too, and that is left alone. Upgraded websockets are not
 * HTTP requests any more (ws clears their socket timeout) and keep their own ping sweep.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { BODY_IDLE_TIMEOUT_MS, HEADERS_TIMEOUT_MS, REQUEST_MAX_MS } from '../../shared/constants'
import { SERVER_TEXT } from '../../shared/texts'

export interface TransportLimits {
  headersMs: number
  bodyIdleMs: number
  requestMaxMs: number
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  headersMs: HEADERS_TIMEOUT_MS,
  bodyIdleMs: BODY_IDLE_TIMEOUT_MS,
  requestMaxMs: REQUEST_MAX_MS,
}

export function applyTransportLimits(
  server: Server,
  limits: TransportLimits = DEFAULT_TRANSPORT_LIMITS,
): void {
  // Node requires headersTimeout <= requestTimeout.
  server.requestTimeout = Math.max(limits.requestMaxMs, limits.headersMs)
  server.headersTimeout = limits.headersMs
  server.setTimeout(limits.bodyIdleMs)

  const current = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>()
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    current.set(req.socket, { req, res })
  })
  // With a listener here node no longer destroys a timed-out socket itself: this decides.
  server.on('timeout', (socket: Socket) => {
    const exchange = current.get(socket)
    if (!exchange || exchange.res.writableFinished) {
      // Between requests (keep-alive) or before the first one: nothing is lost by closing.
      socket.destroy()
      return
    }
    if (exchange.req.complete) return // the request is in; the response is being made or read
    if (!exchange.res.headersSent) {
      const body = JSON.stringify({ error: 'request_timeout', message: SERVER_TEXT.requestTimeout })
      socket.end(
        'HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n' +
          `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
    }
    socket.destroySoon()
  })
}
