/**
 * The avatar menu's notifications toggle (SPEC §2, §4): `enabled` mirrors the browser's real push
 * subscription, re-read on mount and after every change; `reason` says why the browser cannot
 * subscribe (then the toggle is disabled); `error` says why the last change failed.
 */
import { useCallback, useEffect, useState } from 'react'
import { PWA_TEXT } from '../../shared/texts'
import { currentSubscription, pushSupport, subscribe, unsubscribe } from './push'

export interface PushToggleState {
  /** Still finding out, or a change is under way. */
  busy: boolean
  enabled: boolean
  /** Set when this browser cannot subscribe at all. */
  reason: string | null
  error: string | null
  toggle(): Promise<void>
}

export function usePushToggle(): PushToggleState {
  const [busy, setBusy] = useState(true)
  const [enabled, setEnabled] = useState(false)
  const [reason, setReason] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(async () => {
    const support = await pushSupport()
    if (!support.ok) {
      setReason(support.reason)
      setEnabled(false)
      return null
    }
    setReason(null)
    setEnabled(!!(await currentSubscription(support.registration)))
    return support.registration
  }, [])

  useEffect(() => {
    let live = true
    void refresh()
      .catch((e: unknown) => live && setError(String((e as Error)?.message ?? e)))
      .finally(() => live && setBusy(false))
    return () => {
      live = false
    }
  }, [refresh])

  const toggle = useCallback(async () => {
    setBusy(true)
    setError(null)
    try {
      const support = await pushSupport()
      if (!support.ok) throw new Error(support.reason)
      if (await currentSubscription(support.registration)) await unsubscribe(support.registration)
      else await subscribe(support.registration)
    } catch (e) {
      setError(PWA_TEXT.pushFailed(String((e as Error)?.message ?? e)))
    } finally {
      await refresh().catch(() => {})
      setBusy(false)
    }
  }, [refresh])

  return { busy, enabled, reason, error, toggle }
}
