/**
 * Starts the form submission queue on every console page (an App overlay): answers kept offline are
 * sent when the network returns, whichever screen is open by then, not only on a form's page. The
 * queue is imported on demand, so it adds nothing to the shell's first JavaScript.
 */
import { useEffect } from 'react'

export function FormsQueueRunner() {
  useEffect(() => {
    void import('./submission-queue').then((queue) => queue.startFormsQueue())
  }, [])
  return null
}
