/**
 * "A new version is available" as a tiny store outside React: the registration (register.ts) marks an
 * update as waiting, the banner (UpdateBanner.tsx) reads it. Applying it is the user's choice only:
 * with unsaved changes the edit-state guard asks first, and the waiting worker takes over (skipWaiting)
 * only then, followed by one reload — never a swap under someone's feet.
 */
import { confirmLeave } from '../feedback/leave-guard'

export interface UpdateState {
  /** A new service worker is installed and waiting. */
  available: boolean
  /** The user chose Later; shown again on the next update or page load. */
  dismissed: boolean
}

type Listener = () => void
const listeners = new Set<Listener>()
let state: UpdateState = { available: false, dismissed: false }
let activate: (() => void) | null = null

function set(next: Partial<UpdateState>): void {
  state = { ...state, ...next }
  for (const l of listeners) l()
}

export const updateStore = {
  get: (): UpdateState => state,
  subscribe(l: Listener): () => void {
    listeners.add(l)
    return () => listeners.delete(l)
  },
}

/** Called by the registration when a worker is waiting; `skipWaiting` tells it to take over. */
export function updateAvailable(skipWaiting: () => void): void {
  activate = skipWaiting
  set({ available: true, dismissed: false })
}

export function dismissUpdate(): void {
  set({ dismissed: true })
}

/** The Reload button: after the unsaved-changes question (if any), activate the new version. */
export async function applyUpdate(): Promise<boolean> {
  if (!activate) return false
  if (!(await confirmLeave())) return false
  activate()
  return true
}
