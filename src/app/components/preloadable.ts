/**
 * React.lazy that renders at once when its module is already here. A plain lazy component suspends on
 * its first render even when its import resolved long ago (React reads the promise a tick later), and
 * React 19 holds back the commit of a Suspense retry until 300 ms after the last fallback it showed.
 * On an offline start the console's nested lazy layers (App, Shell, the screen) cost up to 250 ms
 * between the screen's render and its commit that way (issue 20, docs/contributing/performance.md "3. Offline cold
 * start"). `preload()` starts the import (main.tsx / Entry.tsx call it early); once it has resolved,
 * the component renders the loaded one directly, without suspending. A failed import is forgotten, so
 * a later preload() tries again and a mount after it succeeded renders the module; the React.lazy used
 * while it is not here keeps its failure, as every lazy route does, until the page reloads.
 */
import { type ComponentType, createElement, lazy, useState } from 'react'

export type Preloadable<P> = ComponentType<P> & {
  preload(): Promise<ComponentType<P>>
  /** The component once its module has arrived, else null. */
  loaded(): ComponentType<P> | null
}

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<ComponentType<P>> | null = null
  const preload = () => {
    pending ??= load().then(
      (component) => {
        loaded = component
        return component
      },
      (error: unknown) => {
        pending = null
        throw error
      },
    )
    return pending
  }
  const Lazy = lazy(async () => ({ default: await preload() }))
  function Preloaded(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded type later would remount the subtree.
    const [type] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>))
    return createElement(type, props)
  }
  return Object.assign(Preloaded, { preload, loaded: () => loaded })
}
