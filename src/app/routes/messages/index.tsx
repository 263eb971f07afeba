/** The Messages route, loaded on first use. */
import { lazy, Suspense } from 'react'
import type { ScreenProps } from '../screens'

const Screen = lazy(async () => ({ default: (await import('./MessagesScreen')).MessagesScreen }))

export function MessagesRoute(_props: ScreenProps) {
  return (
    <Suspense
      fallback={
        <div className="splash-inline" role="status">
          <span className="spinner" aria-hidden="true" /> Loading…
        </div>
      }
    >
      <Screen />
    </Suspense>
  )
}

export { CallInvitations } from './CallInvitations'
