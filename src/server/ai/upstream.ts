/**
 * The one call the assistant makes: an OpenAI-compatible `POST {base}/v1/chat/completions`, the API
 * that Ollama, llama.cpp's server, vLLM and OpenAI itself all speak, so the server needs no SDK and no
 * vendor switch. Every failure becomes an ApiError the console can show: 502 for an unreachable or
 * misbehaving service, 504 when it does not answer within the timeout.
 */
import { AI_TEXT } from '../../shared/texts'
import { ApiError } from '../errors'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface UpstreamOptions {
  baseUrl: string
  model: string
  apiKey?: string
  timeoutMs: number
}

/** `http://h:11434`, `http://h:11434/` and `http://h:11434/v1` all mean the same endpoint. */
export function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/chat/completions`
}

/** The host shown in the popup header: the endpoint's host, without scheme, path or credentials. */
export function endpointHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

/** Upstream error bodies can be long HTML pages; the console shows only a readable first line. */
function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const msg =
      typeof parsed.error === 'string'
        ? parsed.error
        : typeof parsed.error?.message === 'string'
          ? parsed.error.message
          : typeof parsed.message === 'string'
            ? parsed.message
            : ''
    if (msg) return msg.slice(0, 200)
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.split('\n')[0]!.trim().slice(0, 200)
}

export async function chatCompletion(opts: UpstreamOptions, messages: ChatMessage[]): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`
  let res: Response
  try {
    res = await fetch(completionsUrl(opts.baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: opts.model, messages, stream: false }),
      signal: AbortSignal.timeout(opts.timeoutMs),
    })
  } catch (err) {
    throw upstreamError(err)
  }
  let text: string
  try {
    text = await res.text()
  } catch (err) {
    throw upstreamError(err)
  }
  if (!res.ok) throw new ApiError('bad_gateway', AI_TEXT.upstreamStatus(res.status, errorDetail(text)))
  let content: unknown
  try {
    const body = JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> }
    content = body.choices?.[0]?.message?.content
  } catch {
    content = undefined
  }
  if (typeof content !== 'string') throw new ApiError('bad_gateway', AI_TEXT.badReply)
  return content
}

function upstreamError(err: unknown): ApiError {
  const name = (err as { name?: string } | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError')
    return new ApiError('gateway_timeout', AI_TEXT.timeout)
  return new ApiError('bad_gateway', AI_TEXT.unreachable)
}
