/** Lets a page tell the assistant what it shows (e.g. the record open), while it is mounted. */
import { useEffect } from 'react'
import { assistant } from '../assistant/assistant-store'

export function useAssistantContext(value: unknown): void {
  const key = JSON.stringify(value ?? null)
  useEffect(() => {
    assistant.setContext(JSON.parse(key))
    return () => assistant.setContext(undefined)
  }, [key])
}
