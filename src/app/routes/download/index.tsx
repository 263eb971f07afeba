/**
 * /ui/download?t=… (SPEC §2 "Download", no shell UI, no login): the share-link page, loaded on first
 * use so the console's initial JavaScript does not carry it.
 */
import { lazy, Suspense } from 'react'
import { Loading } from '../../components/Loading'
import type { ScreenProps } from '../../routing/table'

const Download = lazy(async () => ({ default: (await import('./DownloadScreen')).DownloadScreen }))

export function DownloadRoute(_props: ScreenProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Download />
    </Suspense>
  )
}
