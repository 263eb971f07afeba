/**
 * SPEC §5: replies are shown without their think and context blocks, and messages left empty are not
 * shown at all. Reasoning models sometimes stop mid-thought, so an unclosed <think> hides the rest.
 */
export interface ChatMessage {
  role: 'user' | 'assistant'
  content: string
}

const BLOCKS = /<(think|context)>[\s\S]*?<\/\1>/gi
const UNCLOSED = /<(think|context)>[\s\S]*$/i

export function stripBlocks(text: string): string {
  return text.replace(BLOCKS, '').replace(UNCLOSED, '').trim()
}

export function visibleMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = []
  for (const m of messages) {
    const content = stripBlocks(m.content)
    if (content) out.push({ role: m.role, content })
  }
  return out
}

/** SPEC §7: what the assistant is told the user is viewing — the path without the /ui prefix. */
export function viewingPath(pathname: string): string {
  return pathname.replace(/^\/ui(?=\/|$)/, '') || '/'
}
