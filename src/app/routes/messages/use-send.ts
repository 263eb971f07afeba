/**
 * One send from the composer and what became of it (issue 36): the draft stays on screen until the
 * server accepted the request, then clears (unless it was edited meanwhile: that is a new message);
 * a refused send keeps it, and sending again replaces the refused request (it leaves the Sync panel).
 */
import { type Dispatch, type SetStateAction, useEffect, useState } from 'react'
import { MESSAGE_REQUESTS_COLLECTION } from '../../../shared/messaging'
import { useMutate } from '../../data/sync-context'
import { type ComposerTab, type Draft, EMPTY_DRAFT } from './compose'
import { type SendOutcome, useSendOutcome } from './use-messages'

export interface Sent {
  id: string
  channel: ComposerTab
  /** The draft as it was sent: cleared on acceptance only if it is still this one. */
  draft: Draft
}

export function useSend(setDraft: Dispatch<SetStateAction<Draft>>) {
  const mutate = useMutate()
  const [sent, setSent] = useState<Sent | null>(null)
  const outcome: SendOutcome | null = useSendOutcome(sent?.id)
  const accepted = outcome?.state === 'accepted'

  useEffect(() => {
    if (!accepted || !sent) return
    setDraft((d) => (d === sent.draft ? { ...EMPTY_DRAFT, tab: d.tab } : d))
  }, [accepted, sent, setDraft])

  return {
    sent,
    outcome,
    async send(draft: Draft, body: Record<string, unknown>): Promise<void> {
      if (outcome?.state === 'refused') await outcome.refusal.discard()
      const doc = await mutate.create(MESSAGE_REQUESTS_COLLECTION, body)
      setSent({ id: doc._id, channel: draft.tab, draft })
    },
    /** Shows an earlier send's fate on this composer ("Edit and resend" of a refused one). */
    follow(id: string, draft: Draft): void {
      setSent({ id, channel: draft.tab, draft })
    },
    forget(): void {
      setSent(null)
    },
  }
}
