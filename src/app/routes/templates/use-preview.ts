/**
 * The live preview of an unsaved draft: the server renders it (POST /api/templates/render), a moment
 * after the last keystroke, and a newer edit cancels the older request, so what is shown is always the
 * latest draft. Offline nothing is sent and the preview says it needs the network.
 */
import { useEffect, useState } from 'react'
import type { TemplateDoc } from '../../../shared/templates'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { type RenderOutcome, renderDraft } from './template-data'

export const PREVIEW_DEBOUNCE_MS = 400

export type PreviewState =
  | { status: 'waiting' }
  | { status: 'offline' }
  | (RenderOutcome & { status: 'done' })

export function usePreview(draft: TemplateDoc, data: Record<string, unknown> | undefined): PreviewState {
  const online = useServerReachable()
  const [state, setState] = useState<PreviewState>({ status: 'waiting' })
  // One key for "what to render": the effect runs when the draft or data really changed.
  const key = JSON.stringify([draft, data ?? null])
  useEffect(() => {
    if (!online) {
      setState({ status: 'offline' })
      return
    }
    const [template, sample] = JSON.parse(key) as [TemplateDoc, Record<string, unknown> | null]
    const abort = new AbortController()
    const timer = setTimeout(() => {
      renderDraft(template, sample ?? undefined, abort.signal).then(
        (outcome) => {
          if (!abort.signal.aborted)
            setState(outcome.ok || !outcome.offline ? { ...outcome, status: 'done' } : { status: 'offline' })
        },
        () => {},
      )
    }, PREVIEW_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [key, online])
  return state
}
