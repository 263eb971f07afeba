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
 * Offline the deletes only reached the outbox: the toast says so, as the save toast does.
 */
export function notifyDeleted(
  done: number,
  total: number,
  online = typeof navigator === 'undefined' || navigator.onLine,
): void {
  if (done >= total) toast.success(online ? deletedToast(done) : SCREENS_TEXT.deletedOffline(done))
  else toast.warning(deletedPartialToast(done, total))
}

/** Offline the write only reached this device: say so, and that it goes out later (issue 11). */
export function notifySaved(
  thing: string,
  online = typeof navigator === 'undefined' || navigator.onLine,
): void {
  toast.success(online ? savedToast(thing) : SCREENS_TEXT.savedOffline)
}

/** "X / Y {things} were saved successfully": success when all, error when none, warning otherwise. */
export function notifyBatchSaved(done: number, total: number, things: string): void {
  const text = batchSavedToast(done, total, things)
  if (done >= total) toast.success(text)
  else if (done === 0) toast.error(text)
  else toast.warning(text)
}
