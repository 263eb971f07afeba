/**
 * The assistant chat popup (SPEC §2, §4, §5, §9). History is loaded each time it opens, so two tabs
 * stay consistent without a live channel. Replies and history show without think/context blocks, and
 * empty messages are skipped. Enter sends, Shift+Enter starts a new line; the input grows up to
 * CHAT_INPUT_MAX_HEIGHT_PX and the chat area up to CHAT_MAX_HEIGHT, scrolling to the newest message
 * CHAT_SCROLL_DELAY_MS after a change (after layout, so the last bubble is measured).
 */
import {
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { CHAT_INPUT_MAX_HEIGHT_PX, CHAT_MAX_HEIGHT, CHAT_SCROLL_DELAY_MS } from '../../shared/constants'
import { AI_TEXT, assistantHeader, UI_TEXT } from '../../shared/texts'
import { confirmDelete } from '../feedback/notify'
import './assistant.css'
import { assistant } from './assistant-store'
import { visibleMessages } from './strip'

export function AssistantPopup() {
  const state = useSyncExternalStore(assistant.subscribe, assistant.get, assistant.get)
  const [draft, setDraft] = useState('')
  const listRef = useRef<HTMLDivElement>(null)
  const inputRef = useRef<HTMLTextAreaElement>(null)
  const headingId = useId()
  const shown = visibleMessages(state.messages)

  // Changes when a message arrives or the typing indicator comes or goes.
  const scrollKey = `${shown.length}:${state.waiting}`
  useEffect(() => {
    if (!state.open || !scrollKey) return
    const timer = setTimeout(() => {
      const list = listRef.current
      if (list) list.scrollTop = list.scrollHeight
    }, CHAT_SCROLL_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state.open, scrollKey])

  useLayoutEffect(() => {
    const input = inputRef.current
    // Re-measured on every change of the text (draft is read so the dependency is explicit).
    if (!input || draft === undefined) return
    input.style.height = 'auto'
    input.style.height = `${Math.min(input.scrollHeight, CHAT_INPUT_MAX_HEIGHT_PX)}px`
  }, [draft])

  useEffect(() => {
    if (state.open) inputRef.current?.focus()
  }, [state.open])

  if (!state.open) return null
  const { info } = state
  const configured = info?.configured !== false
  // The SPEC layout stays when no model is configured (issue 11: it was a dead end): the header names
  // what is missing, the log says how to connect one, and the input is there but disabled.
  const title = !configured
    ? assistantHeader(AI_TEXT.noHost, AI_TEXT.noModel)
    : info?.host && info.model
      ? assistantHeader(info.host, info.model)
      : AI_TEXT.title

  // Clearing deletes the stored history on the server, so it asks like every other delete.
  const clearChat = async () => {
    if (shown.length > 0 && !(await confirmDelete(shown.length, AI_TEXT.messagesName))) return
    await assistant.clear()
  }
  const submit = () => {
    if (!draft.trim()) return
    const text = draft
    setDraft('')
    void assistant.send(text)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      submit()
    }
  }

  return (
    <section
      className="mc-assistant"
      role="dialog"
      aria-modal="false"
      aria-labelledby={headingId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') assistant.close()
      }}
    >
      <header className="mc-assistant-head">
        <h2 id={headingId}>{title}</h2>
        {configured && (
          <button
            type="button"
            className="mc-icon-button"
            aria-label={AI_TEXT.clear}
            title={AI_TEXT.clear}
            onClick={clearChat}
          >
            ⌫
          </button>
        )}
        <button type="button" className="mc-icon-button" aria-label={AI_TEXT.close} onClick={assistant.close}>
          ×
        </button>
      </header>
      <div className="mc-assistant-log" role="log" ref={listRef} style={{ maxHeight: CHAT_MAX_HEIGHT }}>
        {!configured && (
          <div className="mc-assistant-off" data-testid="assistant-off">
            <p>{AI_TEXT.notConfigured}</p>
            <p>{AI_TEXT.notConfiguredHint}</p>
          </div>
        )}
        {configured && shown.length === 0 && !state.waiting && !state.loading && (
          <p className="mc-assistant-empty">{AI_TEXT.empty}</p>
        )}
        {shown.map((m, i) => (
          // Messages have no ids and are only ever appended or cleared, so the index is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={i} className="mc-chat-message" data-role={m.role}>
            {m.content}
          </div>
        ))}
        {state.waiting && (
          <div className="mc-typing" role="status" aria-label={AI_TEXT.typing} data-testid="typing">
            <span />
            <span />
            <span />
          </div>
        )}
      </div>
      {state.error && (
        <p className="mc-assistant-error" role="alert">
          {state.error}
        </p>
      )}
      <form
        className="mc-assistant-form"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <textarea
          ref={inputRef}
          rows={1}
          value={draft}
          placeholder={UI_TEXT.assistantPlaceholder}
          aria-label={UI_TEXT.assistantPlaceholder}
          style={{ maxHeight: CHAT_INPUT_MAX_HEIGHT_PX }}
          disabled={!configured}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="mc-button mc-button-primary"
          disabled={!configured || !draft.trim() || state.waiting}
        >
          {AI_TEXT.send}
        </button>
      </form>
    </section>
  )
}
