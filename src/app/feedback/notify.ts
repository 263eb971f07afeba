/**
 * The spec's standard confirmations and result toasts (SPEC §8), so every screen words deletes and
 * saves the same way. Result colours follow the counts: all done is success, none done is error,
 * some done is warning.
 */
import {
  batchSavedToast,
  deleteButtonText,
  deleteConfirmText,
  deletedPartialToast,
  deletedToast,
  FEEDBACK_TEXT,
  SCREENS_TEXT,
  savedToast,
  UI_TEXT,
} from '../../shared/messages'
import { confirm } from './confirm-store'
import { toast } from './toast-store'

/** "Do you really want to delete 3 users? …" with Cancel and "Delete 3". */
export function confirmDelete(count: number, name: string): Promise<boolean> {
  return confirm({
    title: FEEDBACK_TEXT.confirmDelete,
    text: deleteConfirmText(count, name),
    confirmLabel: deleteButtonText(count),
    cancelLabel: FEEDBACK_TEXT.cancel,
    danger: true,
  })
}

/** SPEC §8 unsaved-changes question; resolves true when the user chooses Continue. */
export function confirmDiscard(): Promise<boolean> {
  return confirm({
    title: UI_TEXT.unsavedTitle,
    text: UI_TEXT.unsavedText,
    confirmLabel: UI_TEXT.unsavedContinue,
    cancelLabel: FEEDBACK_TEXT.cancel,
    danger: true,
  })
}

/**
 * After deleting `done` of `total`: "Deleted N item(s)" (success) or "Deleted X/Y items" (warning).
 * Out of the server's reach the deletes only reached this device: the toast says so, the spec's words
 * first. `reachable` is the screen's useServerReachable(), not navigator.onLine: the browser can have a
 * network while the server is cut off, and then "Deleted N item(s)" alone would claim too much.
 */
export function notifyDeleted(done: number, total: number, reachable: boolean): void {
  if (done >= total) toast.success(reachable ? deletedToast(done) : SCREENS_TEXT.deletedOffline(done))
  else toast.warning(deletedPartialToast(done, total))
}

/**
 * "{thing} was saved successfully", or out of the server's reach the offline wording (the write only
 * reached this device and goes out later, issue 11). `reachable` is the screen's useServerReachable()
 * (or an op's own answer), not navigator.onLine, for the same reason as notifyDeleted (issue 20).
 */
export function notifySaved(thing: string, reachable: boolean): void {
  toast.success(reachable ? savedToast(thing) : SCREENS_TEXT.savedOffline)
}

/**
 * "X / Y {things} were saved successfully": success when all, error when none, warning otherwise. All
 * saved out of the server's reach is the offline wording, as for notifySaved.
 */
export function notifyBatchSaved(done: number, total: number, things: string, reachable: boolean): void {
  const text = batchSavedToast(done, total, things)
  if (done >= total) toast.success(reachable ? text : SCREENS_TEXT.savedOffline)
  else if (done === 0) toast.error(text)
  else toast.warning(text)
}
