/**
 * Chart colours from the theme tokens (styles/base.css), re-read whenever <html>'s data-theme or style
 * (the theme setting) changes, so charts stay readable in dark mode: a canvas cannot inherit CSS
 * colours the way the DOM does. Shared by every chart.js screen (analytics; payments can use it too).
 */
import { useEffect, useState } from 'react'

export interface ChartPalette {
  text: string
  muted: string
  grid: string
  /** Series colours, the primary first. */
  series: string[]
}

export function readChartPalette(): ChartPalette {
  const css = getComputedStyle(document.documentElement)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  return {
    text: v('--text', '#1b1f24'),
    muted: v('--muted', '#57606a'),
    grid: v('--border', '#dde2e8'),
    series: [
      v('--primary', '#1f6feb'),
      v('--accent', '#f59e0b'),
      v('--danger', '#c62828'),
      v('--muted', '#888'),
    ],
  }
}

export function useChartPalette(): ChartPalette {
  const [palette, setPalette] = useState(readChartPalette)
  useEffect(() => {
    const observer = new MutationObserver(() => setPalette(readChartPalette()))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'style'] })
    return () => observer.disconnect()
  }, [])
  return palette
}
