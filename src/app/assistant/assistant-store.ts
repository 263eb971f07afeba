/**
 * The assistant chat's state outside React: the sidebar opens it, a session expiry clears it
 * (SPEC §4), and the popup renders it. Messages are kept raw as the server returns them; the popup
 * shows them through visibleMessages(). Errors of a question are shown in the chat, not as toasts:
 * the user is looking at the chat.
 */
import { AI_TEXT } from '../../shared/texts'
import { api } from '../api/client'
import { onlineOnlyError } from '../sync-ui/online-only'
import { type ChatMessage, viewingPath } from './strip'

export interface AssistantInfo {
  configured: boolean
  host?: string
  model?: string
  message?: string
}

export interface AssistantState {
  open: boolean
  info: AssistantInfo | null
  messages: readonly ChatMessage[]
  waiting: boolean
  loading: boolean
  error: string | null
}

const INITIAL: AssistantState = {
  open: false,
  info: null,
  messages: [],
  waiting: false,
  loading: false,
  error: null,
}
let state: AssistantState = INITIAL
/** What the current page offers the model about itself (set with useAssistantContext). */
let pageContext: unknown
/** Bumped by reset(), so answers of a logged-out session are dropped. */
let generation = 0
const listeners = new Set<() => void>()

const set = (patch: Partial<AssistantState>) => {
  state = { ...state, ...patch }
  for (const l of listeners) l()
}
/** The server's message, or the shared "needs a connection to the server" text when it is out of reach. */
const messageOf = (e: unknown) => onlineOnlyError(AI_TEXT.title, e)

async function load() {
  const gen = generation
  set({ loading: true, error: null })
  try {
    const [info, history] = await Promise.all([
      api.get<AssistantInfo>('/api/ai/info'),
      api.get<ChatMessage[]>('/api/ai'),
    ])
    if (gen === generation) set({ info, messages: Array.isArray(history) ? history : [], loading: false })
  } catch (e) {
    if (gen === generation) set({ loading: false, error: messageOf(e) })
  }
}

export const assistant = {
  get: (): AssistantState => state,
  subscribe(l: () => void): () => void {
    listeners.add(l)
    return () => listeners.delete(l)
  },
  open() {
    set({ open: true })
    void load()
  },
  close() {
    set({ open: false })
  },
  /** Sends a question; blank input is ignored (SPEC §5). Resolves once the reply is in. */
  async send(text: string): Promise<boolean> {
    const question = text.trim()
    if (!question || state.waiting) return false
    const gen = generation
    set({ messages: [...state.messages, { role: 'user', content: question }], waiting: true, error: null })
    try {
      const { reply } = await api.request<{ reply: string }>('/api/ai', {
        method: 'POST',
        body: { question, context: pageContext ?? null, viewing: viewingPath(location.pathname) },
      })
      if (gen === generation) {
        set({
          messages: [...state.messages, { role: 'assistant', content: String(reply ?? '') }],
          waiting: false,
        })
      }
      return true
    } catch (e) {
      if (gen === generation) set({ waiting: false, error: messageOf(e) })
      return false
    }
  },
  async clear() {
    const gen = generation
    try {
      await api.request('/api/ai', { method: 'DELETE' })
      if (gen === generation) set({ messages: [], error: null })
    } catch (e) {
      if (gen === generation) set({ error: messageOf(e) })
    }
  },
  /** Logout or session expiry: close and forget the chat. */
  reset() {
    generation++
    pageContext = undefined
    state = INITIAL
    for (const l of listeners) l()
  },
  setContext(value: unknown) {
    pageContext = value
  },
}

export const openAssistant = (): void => assistant.open()
export const clearAssistantChat = (): void => assistant.reset()
