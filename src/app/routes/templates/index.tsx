/**
 * Route entries of the Templates screens, loaded on first use: the editor brings CodeMirror with it,
 * which must stay out of the shell's initial JavaScript and off every other route.
 */
import { lazy, Suspense } from 'react'
import type { ScreenProps } from '../screens'

const Templates = lazy(async () => ({ default: (await import('./TemplatesScreen')).TemplatesScreen }))
const Template = lazy(async () => ({ default: (await import('./TemplateScreen')).TemplateScreen }))

function Loading() {
  return (
    <div className="splash-inline" role="status">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  )
}

const wrap = (Screen: React.ComponentType<ScreenProps>) =>
  function TemplatesRouteEntry(props: ScreenProps) {
    return (
      <Suspense fallback={<Loading />}>
        <Screen {...props} />
      </Suspense>
    )
  }

export const TemplatesRoute = wrap(Templates)
export const TemplateRoute = wrap(Template)
