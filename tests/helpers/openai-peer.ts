/**
 * A real local HTTP server speaking the OpenAI chat-completions API (the dialect of Ollama, llama.cpp's
 * server and vLLM), so assistant tests exercise the server's real HTTP call instead of a mock. By
 * default it answers with a `<think>` block (as reasoning models do) followed by an echo of the last
 * user message; tests can change the reply, add a delay or make it fail, and read every request.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface PeerMessage {
  role: string
  content: string
}

export interface PeerRequest {
  model: string
  messages: PeerMessage[]
  authorization: string | undefined
  body: Record<string, unknown>
}

export interface OpenAiPeer {
  /** Base URL to put in MOMENTUM_AI_URL, e.g. http://127.0.0.1:43123 */
  url: string
  requests: PeerRequest[]
  /** Milliseconds to wait before answering. */
  delayMs: number
  /** When set, answers with this status and an OpenAI-style error body. */
  failWith: number | null
  /** Builds the reply text from the request. */
  reply: (req: PeerRequest) => string
  close(): Promise<void>
}

export const defaultReply = (req: PeerRequest): string => {
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user')
  const question = (lastUser?.content ?? '').replace(/<context>[\s\S]*?<\/context>/g, '').trim()
  return `<think>The user asked "${question}". Answer briefly.</think>You asked: ${question}`
}

export async function startOpenAiPeer(): Promise<OpenAiPeer> {
  const sockets = new Set<import('node:net').Socket>()
  const peer: OpenAiPeer = {
    url: '',
    requests: [],
    delayMs: 0,
    failWith: null,
    reply: defaultReply,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        if (res.destroyed) return
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        return send(404, {
          error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
        })
      }
      let body: Record<string, unknown>
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
      } catch {
        return send(400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } })
      }
      const request: PeerRequest = {
        model: String(body.model),
        messages: Array.isArray(body.messages) ? (body.messages as PeerMessage[]) : [],
        authorization: req.headers.authorization,
        body,
      }
      peer.requests.push(request)
      const answer = () => {
        if (peer.failWith) {
          return send(peer.failWith, { error: { message: 'model is overloaded', type: 'server_error' } })
        }
        send(200, {
          id: `chatcmpl-${peer.requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: request.model,
          choices: [
            { index: 0, message: { role: 'assistant', content: peer.reply(request) }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        })
      }
      if (peer.delayMs > 0) setTimeout(answer, peer.delayMs)
      else answer()
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return peer
}
