/**
 * Measures the room the screen's buttons, notes and filter bar take between its title block and its
 * table and remembers it (table-offset.ts), once the table is shown and again after the window is
 * resized, for the first frame of the next offline start.
 */
import { type RefObject, useEffect } from 'react'
import { rememberTableOffset } from '../../table-offset'

export function useTableOffset(
  section: RefObject<HTMLElement | null>,
  collection: string,
  shown: boolean,
): void {
  useEffect(() => {
    if (!shown) return
    const measure = () => {
      const screen = section.current
      const titles = screen?.querySelector('h1')?.parentElement
      const table = screen?.querySelector('.vt')
      if (!screen || !titles || !table) return
      // What lies between the title block and the table beyond the one grid gap the frame has too.
      const gap = Number.parseFloat(getComputedStyle(screen).rowGap) || 0
      const room = table.getBoundingClientRect().top - titles.getBoundingClientRect().bottom - gap
      rememberTableOffset(collection, window.innerWidth, Math.max(0, Math.round(room)))
    }
    measure()
    let timer: ReturnType<typeof setTimeout> | undefined
    const onResize = () => {
      clearTimeout(timer)
      timer = setTimeout(measure, 300)
    }
    window.addEventListener('resize', onResize)
    return () => {
      clearTimeout(timer)
      window.removeEventListener('resize', onResize)
    }
  }, [section, collection, shown])
}
