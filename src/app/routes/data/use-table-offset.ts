/**
 * Measures where the collection's table starts below the screen's heading and remembers it
 * (table-offset.ts), once the table is shown and again after the window is resized, for the first
 * frame of the next offline start.
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
      const h1 = section.current?.querySelector('h1')
      const table = section.current?.querySelector('.vt')
      if (!h1 || !table) return
      const offset = Math.round(table.getBoundingClientRect().top - h1.getBoundingClientRect().top)
      rememberTableOffset(collection, window.innerWidth, offset)
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
