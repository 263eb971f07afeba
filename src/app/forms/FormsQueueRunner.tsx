/**
 * Starts the form submission queue on every console page (an App overlay): answers kept offline are
 * sent when the network returns, whichever screen is open by then, not only on a form's page. The
 * queue is imported on demand, and only after the first paint: it adds nothing to the shell's first
 * JavaScript nor to the task that mounts the console (issue 20). Nothing is lost by the wait: queued
 * submissions live in IndexedDB, and a form's own submit sends at once without this runner.
 */
import { useEffect } from 'react'
import { afterFirstPaint } from '../after-paint'

export function FormsQueueRunner() {
  useEffect(() => {
    afterFirstPaint(() => void import('./submission-queue').then((queue) => queue.startFormsQueue()))
  }, [])
  return null
}
