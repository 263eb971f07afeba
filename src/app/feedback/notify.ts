/**
 * The spec's standard confirmations and result toasts (SPEC §8), so every screen words deletes and
 * saves the same way. Result colours follow the counts the server accepted: all done is success, none
 * done is error, some done is warning; a queued write is neutral until then.
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
} from '../../shared/texts'
import { type WrittenDoc, writeOutcome } from '../data/write-outcome'
import { confirm } from './confirm-store'
import { type ToastKind, toast } from './toast-store'

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
 * Written locally, not yet by the server: the toast is neutral ("Saving…", or the offline wording
 * when the server is out of reach) and turns into the outcome in place once every write has settled
 * (write-outcome.ts): success only for what the server accepted (issue 36). A refusal that arrives
 * after the toast has closed gets a toast of its own, naming the thing; the screen shows it next to
 * the field too (useSaveRefusal). An accepted write after the toast closed needs no second word: the
 * row's "pending" mark goes.
 */
function follow(
  id: number,
  written: readonly WrittenDoc[],
  settle: (accepted: number, refusals: string[]) => { kind: ToastKind; message: string } | null,
): void {
  void Promise.all(written.map(writeOutcome)).then((outcomes) => {
    if (outcomes.some((o) => o.kind === 'unknown')) return
    const refusals = outcomes.flatMap((o) => ('message' in o ? [o.message] : []))
    const result = settle(outcomes.length - refusals.length, refusals)
    if (!result) return
    if (!toast.change(id, result.kind, result.message) && result.kind !== 'success')
      toast.show(result.kind, result.message)
  })
}

const asList = (written: WrittenDoc | readonly WrittenDoc[]): readonly WrittenDoc[] =>
  'collection' in written ? [written] : written

const byCounts = (done: number, total: number): ToastKind =>
  done >= total ? 'success' : done === 0 ? 'error' : 'warning'

/**
 * A delete of `total`, of which `done` were written. Without `written` the server itself answered
 * (a direct API call): "Deleted N item(s)" (success) or "Deleted X/Y items" (warning). With the
 * queued deletes, the toast is neutral until they settle. `reachable` is the screen's
 * useServerReachable(), not navigator.onLine: the browser can have a network while the server is cut
 * off, and then "Deleting" would claim too much (the offline wording says they wait).
 */
export function notifyDeleted(
  done: number,
  total: number,
  reachable: boolean,
  written?: WrittenDoc | readonly WrittenDoc[],
): void {
  if (!written) {
    if (done >= total) toast.success(deletedToast(done))
    else toast.warning(deletedPartialToast(done, total))
    return
  }
  const list = asList(written)
  if (done < total && list.length === 0) {
    toast.warning(deletedPartialToast(done, total))
    return
  }
  const id = toast.info(reachable ? SCREENS_TEXT.deleting(done) : SCREENS_TEXT.deletedOffline(done))
  // Queued elsewhere (the files queue, whose rows show each outcome): nothing here to follow.
  if (list.length === 0) return
  follow(id, list, (accepted, refusals) => {
    if (accepted >= total) return { kind: 'success', message: deletedToast(accepted) }
    if (accepted === 0 && refusals[0]) return { kind: 'error', message: SCREENS_TEXT.notDeleted(refusals[0]) }
    return { kind: 'warning', message: deletedPartialToast(accepted, total) }
  })
}

/**
 * "{thing} was saved successfully" once the server accepted it. Without `written` the server itself
 * answered (a direct API call). With the queued write, neutral first: "Saving {thing}…", or out of
 * the server's reach the offline wording (the write only reached this device, issue 11), then the
 * outcome on the same toast.
 */
export function notifySaved(
  thing: string,
  reachable: boolean,
  written?: WrittenDoc,
  /** The success words when not the spec's "{thing} was saved successfully" (a duplicate, a switch). */
  done = savedToast(thing),
): void {
  if (!written) {
    toast.success(done)
    return
  }
  const id = toast.info(reachable ? SCREENS_TEXT.saving(thing) : SCREENS_TEXT.savedOffline)
  follow(id, [written], (accepted, refusals) =>
    accepted
      ? { kind: 'success', message: done }
      : { kind: 'error', message: SCREENS_TEXT.notSaved(thing, refusals[0] ?? '') },
  )
}

/**
 * "X / Y {things} were saved successfully": success when all, error when none, warning otherwise,
 * counted when the server answered (as for notifySaved, neutral until then when `written`).
 */
export function notifyBatchSaved(
  done: number,
  total: number,
  things: string,
  reachable: boolean,
  written?: readonly WrittenDoc[],
): void {
  if (!written || done === 0) {
    toast.show(byCounts(done, total), batchSavedToast(done, total, things))
    return
  }
  const id = toast.info(reachable ? SCREENS_TEXT.savingBatch(done, things) : SCREENS_TEXT.savedOffline)
  follow(id, written, (accepted, refusals) => {
    const text = batchSavedToast(accepted, total, things)
    return { kind: byCounts(accepted, total), message: refusals[0] ? `${text}: ${refusals[0]}` : text }
  })
}
