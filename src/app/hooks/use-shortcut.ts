/** Binds one SPEC §9 shortcut to a handler while the calling component is mounted. */
import { useEffect, useRef } from 'react'
import {
  registerShortcut,
  type ShortcutHandler,
  type ShortcutName,
  type ShortcutOptions,
} from '../feedback/shortcuts'

export function useShortcut(
  name: ShortcutName,
  handler: ShortcutHandler | null | undefined,
  options: ShortcutOptions = {},
): void {
  const ref = useRef(handler)
  ref.current = handler
  const active = !!handler
  const inTextFields = !!options.inTextFields
  useEffect(() => {
    if (!active) return
    return registerShortcut(name, (e) => ref.current?.(e), { inTextFields })
  }, [name, active, inTextFields])
}
