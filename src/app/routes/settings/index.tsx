/** Route entry of the Settings screen, loaded on first use (precached by the service worker). */
import { lazy, Suspense } from 'react'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'

const Settings = lazy(async () => ({ default: (await import('./SettingsScreen')).SettingsScreen }))

export function SettingsRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Settings />
    </Suspense>
  )
}
