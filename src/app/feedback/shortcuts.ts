/**
 * The keyboard shortcuts of SPEC §9 as a registry: pages register what Ctrl/Cmd+S (and the others)
 * mean while they are mounted; the most recent registration wins, so a dialog or a nested editor
 * overrides its page and the page gets it back on unmount. Inside text fields the browser's own
 * select-all and delete stay untouched; save is always taken there, and undo/redo when the handler asks
 * for them (`inTextFields`): a form with an edit state owns its whole history, because the browser's
 * per-field undo after the app's undo replayed old typing into the field ("OsakaOsaka", issue 11).
 * Search boxes, password fields, dialogs and `data-native-undo` fields keep the browser's undo.
 */
export type ShortcutName = 'selectAll' | 'delete' | 'save' | 'redo' | 'undo'
export type ShortcutHandler = (event: KeyboardEvent) => void

interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

export function shortcutOf(e: KeyLike): ShortcutName | null {
  if (e.altKey) return null
  const mod = e.ctrlKey || e.metaKey
  const key = e.key.toLowerCase()
  if (!mod) return e.key === 'Delete' && !e.shiftKey ? 'delete' : null
  if (key === 'a' && !e.shiftKey) return 'selectAll'
  if (key === 's' && !e.shiftKey) return 'save'
  if (key === 'y' && !e.shiftKey) return 'redo'
  // Cmd+Shift+Z is redo on macOS; the spec's Ctrl/Cmd+Y stays the primary one.
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo'
  return null
}

export function isTextEntry(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false
  const el = target as HTMLElement
  if (el.isContentEditable) return true
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true
  if (el.tagName !== 'INPUT') return false
  const type = (el as HTMLInputElement).type
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'color', 'range', 'image'].includes(type)
}

/** A text field whose own undo is not part of any form's edit state (see the header). */
export function keepsNativeUndo(target: EventTarget | null): boolean {
  const el = target as HTMLElement
  if (el.tagName === 'INPUT' && ['search', 'password'].includes((el as HTMLInputElement).type)) return true
  return !!el.closest('dialog, [role="dialog"], [data-native-undo]')
}

export interface ShortcutOptions {
  /** Also inside text fields (undo/redo of a form's edit state; save always is). */
  inTextFields?: boolean
}

interface Registration {
  handler: ShortcutHandler
  inTextFields: boolean
}

const stacks = new Map<ShortcutName, Registration[]>()
let installed = false

export function registerShortcut(
  name: ShortcutName,
  handler: ShortcutHandler,
  options: ShortcutOptions = {},
): () => void {
  installShortcuts()
  const stack = stacks.get(name) ?? []
  const reg = { handler, inTextFields: !!options.inTextFields }
  stack.push(reg)
  stacks.set(name, stack)
  return () => {
    const i = stack.lastIndexOf(reg)
    if (i >= 0) stack.splice(i, 1)
  }
}

function onKeyDown(e: KeyboardEvent) {
  if (e.defaultPrevented || e.isComposing) return
  const name = shortcutOf(e)
  if (!name) return
  const reg = stacks.get(name)?.at(-1)
  // The element really typed in: `e.target` is retargeted to the host of a shadow root (the code
  // editors live in one, templates/EditorRoot.tsx), which is no text field.
  const target = e.composedPath?.()[0] ?? e.target
  if (name !== 'save' && isTextEntry(target)) {
    const owned = reg?.inTextFields && (name === 'undo' || name === 'redo') && !keepsNativeUndo(target)
    if (!owned) return
  }
  if (!reg) return
  e.preventDefault()
  reg.handler(e)
}

function installShortcuts() {
  if (installed || typeof window === 'undefined') return
  installed = true
  window.addEventListener('keydown', onKeyDown)
}
