/**
 * The AI assistant (SPEC §2, §5, §7): POST /api/ai asks, GET /api/ai returns the caller's history,
 * DELETE /api/ai clears it, GET /api/ai/info names the endpoint's host and model for the popup header.
 * Permissions come from the guard's default (ai:c, ai:r, ai:d), so the SPEC §6 key `ai` governs it.
 *
 * The question goes to an OpenAI-compatible endpoint with the user's recent history. The page the
 * user is viewing and the context the console sends travel inside a `<context>` block of the user
 * message: the model sees them, the stored history keeps them raw, and the console strips the block
 * when it shows a message (SPEC §5). A failed call stores nothing, so the history never holds a
 * question without its answer.
 */
import type { FastifyInstance } from 'fastify'
import { AI_TEXT, VALIDATION } from '../../shared/texts'
import { ApiError, badRequest } from '../errors'
import { type RouteTable, route } from '../http/route-table'
import type { Services } from '../services'
import { AI_CONTEXT_MESSAGES, appendHistory, clearHistory, loadHistory } from './history'
import { type ChatMessage, chatCompletion, endpointHost, type UpstreamOptions } from './upstream'

/** The AI assistant: its upstream's description, and the caller's own chat history. */
export const AI_ROUTES: RouteTable = [
  route('GET', '/api/ai/info', 'default', 'ai/info:r'),
  route('GET', '/api/ai', 'default', 'ai:r'),
  route('DELETE', '/api/ai', 'default', 'ai:d'),
  route('POST', '/api/ai', 'default', 'ai:c'),
]

/** Long enough for a local model on a CPU to answer; MOMENTUM_AI_TIMEOUT_MS overrides it. */
export const AI_DEFAULT_TIMEOUT_MS = 120_000
/** A page's context is a hint, not a payload: larger ones are cut so one question can't flood the model. */
const CONTEXT_MAX_CHARS = 8_000
const QUESTION_MAX_CHARS = 8_000

const SYSTEM_PROMPT =
  'You are the assistant inside Momentum Console, the back-office console of a web platform ' +
  '(users, groups, data collections, forms, payments, storage, messages, logs and settings). ' +
  'Answer briefly and concretely. A user message may end with a <context> block naming the page ' +
  'the user is viewing and data from it; use it, but do not repeat it.'

function upstreamOptions(services: Services): UpstreamOptions | null {
  const { aiBaseUrl, aiModel, aiApiKey, aiTimeoutMs } = services.config
  if (!aiBaseUrl || !aiModel) return null
  return {
    baseUrl: aiBaseUrl,
    model: aiModel,
    apiKey: aiApiKey,
    timeoutMs: aiTimeoutMs && aiTimeoutMs > 0 ? aiTimeoutMs : AI_DEFAULT_TIMEOUT_MS,
  }
}

/** The user message as stored and sent: the question, then the context block when there is one. */
export function composeQuestion(question: string, viewing: unknown, context: unknown): string {
  const lines: string[] = []
  if (typeof viewing === 'string' && viewing.trim()) lines.push(`Viewing: ${viewing.trim().slice(0, 500)}`)
  if (context !== undefined && context !== null && context !== '') {
    const text = typeof context === 'string' ? context : JSON.stringify(context)
    lines.push(text.length > CONTEXT_MAX_CHARS ? `${text.slice(0, CONTEXT_MAX_CHARS)}…` : text)
  }
  const q = question.trim().slice(0, QUESTION_MAX_CHARS)
  return lines.length ? `${q}\n<context>\n${lines.join('\n')}\n</context>` : q
}

export async function aiModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store } = services

  api.get('/ai/info', async () => {
    const opts = upstreamOptions(services)
    if (!opts) return { configured: false, message: AI_TEXT.notConfigured }
    return { configured: true, host: endpointHost(opts.baseUrl), model: opts.model }
  })

  api.get('/ai', async (req) => loadHistory(store, req.auth.user!))

  api.delete('/ai', async (req) => {
    await clearHistory(store, req.auth.user!)
    return { ok: true }
  })

  api.post('/ai', async (req) => {
    const body = (req.body ?? {}) as { question?: unknown; context?: unknown; viewing?: unknown }
    if (typeof body !== 'object' || typeof body.question !== 'string' || !body.question.trim()) {
      throw badRequest(VALIDATION.aiMissingQuestion)
    }
    const opts = upstreamOptions(services)
    if (!opts) throw new ApiError('unavailable', AI_TEXT.notConfigured)
    const user = req.auth.user!
    const content = composeQuestion(body.question, body.viewing, body.context)
    const history = (await loadHistory(store, user)).slice(-AI_CONTEXT_MESSAGES)
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM_PROMPT },
      ...history,
      { role: 'user', content },
    ]
    const reply = await chatCompletion(opts, messages)
    await appendHistory(store, user, [
      { role: 'user', content },
      { role: 'assistant', content: reply },
    ])
    return { reply }
  })
}
