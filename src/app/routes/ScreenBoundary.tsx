/**
 * Keeps one screen's failure inside that screen: the shell, the sidebar and the Sync panel stay. A
 * screen whose code could not be fetched (its first visit while the server is out of reach, before
 * the service worker holds it) says so and offers to try again; any other error says what it was and
 * goes to the client log. Without it React unmounts the whole console and the page goes blank.
 * AppRoutes keys it by path, so moving to another screen starts afresh.
 */
import { Component, type ReactNode } from 'react'
import { SHELL_TEXT } from '../../shared/texts'
import { messageOf } from '../feedback/error-reporter'
import { reportCaughtError } from '../feedback/install'

/** What browsers say when a dynamic import's module cannot be fetched. */
const CHUNK_FAILED =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload CSS|Loading (?:CSS )?chunk/i

export function isChunkFailure(error: unknown): boolean {
  return CHUNK_FAILED.test(messageOf(error))
}

interface State {
  error: unknown
}

export class ScreenBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('unknown error') }
  }

  override componentDidCatch(error: unknown): void {
    if (!isChunkFailure(error)) reportCaughtError(error)
  }

  override render(): ReactNode {
    const { error } = this.state
    if (!error) return this.props.children
    const notLoaded = isChunkFailure(error)
    return (
      <section className="screen" aria-labelledby="screen-failed">
        <div className="notice notice-warning screen-failed" role="alert" id="screen-failed">
          <p>{notLoaded ? SHELL_TEXT.screenNotLoaded : SHELL_TEXT.screenFailed(messageOf(error))}</p>
          {/* A failed lazy import is kept by React until the page loads again. */}
          <button type="button" className="button" onClick={() => location.reload()}>
            {notLoaded ? SHELL_TEXT.tryAgain : SHELL_TEXT.reload}
          </button>
        </div>
      </section>
    )
  }
}
