/**
 * Confirmation requests as promises: `await confirm({...})` resolves true (confirmed) or false
 * (cancelled, Escape, backdrop). Requests queue, so two callers never fight over one dialog. Kept out
 * of React like the toasts, so non-component code (a navigation guard, a bulk action) can ask too.
 */
export interface ConfirmRequest {
  title: string
  text: string
  confirmLabel: string
  cancelLabel: string
  /** Destructive actions get the red button. */
  danger?: boolean
}

interface Pending extends ConfirmRequest {
  id: number
  resolve: (ok: boolean) => void
}

let queue: readonly Pending[] = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => {
  for (const l of listeners) l()
}

export function confirm(request: ConfirmRequest): Promise<boolean> {
  return new Promise((resolve) => {
    queue = [...queue, { ...request, id: nextId++, resolve }]
    emit()
  })
}

export const confirmStore = {
  current: (): Pending | null => queue[0] ?? null,
  answer(id: number, ok: boolean) {
    const req = queue.find((p) => p.id === id)
    if (!req) return
    queue = queue.filter((p) => p.id !== id)
    emit()
    req.resolve(ok)
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  /** Cancels everything pending (logout, session expiry). */
  cancelAll() {
    const pending = queue
    queue = []
    emit()
    for (const p of pending) p.resolve(false)
  },
}
