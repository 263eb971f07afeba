/**
 * A small live picture of the console in the chosen theme: sidebar, toolbar, a card, a primary button
 * and an accent badge. It uses the form's colours directly (not the page's custom properties), so the
 * preview changes as the pickers move and the rest of the console keeps its look until saved.
 */
import type { CSSProperties } from 'react'
import { contrastText } from '../../settings/site'
import type { ThemeForm } from './settings-model'

export function ThemePreview({ theme, title }: { theme: ThemeForm; title: string }) {
  const dark = theme.darkMode
  const surface = dark ? '#161b22' : '#ffffff'
  const text = dark ? '#e6e9ee' : '#1b1f24'
  const border = dark ? '#2a313c' : '#dde2e8'
  const style = {
    '--p-bg': dark ? '#0e1116' : theme.background,
    '--p-surface': surface,
    '--p-text': text,
    '--p-border': border,
    '--p-primary': theme.primary,
    '--p-on-primary': contrastText(theme.primary),
    '--p-accent': theme.accent,
    '--p-on-accent': contrastText(theme.accent),
  } as CSSProperties
  return (
    <figure className="theme-preview" style={style} aria-label="Theme preview">
      <div className="tp-sidebar">
        <span className="tp-logo" />
        <span className="tp-nav is-active" />
        <span className="tp-nav" />
        <span className="tp-nav" />
      </div>
      <div className="tp-main">
        <div className="tp-toolbar">
          <span>{title || 'Momentum'}</span>
          <span className="tp-save">Save</span>
        </div>
        <div className="tp-card">
          <strong>Contacts</strong>
          <span className="tp-badge">3 new</span>
          <p>Preview of text on a card.</p>
          <span className="tp-button">Primary action</span>
        </div>
      </div>
      <figcaption className="visually-hidden">Preview of the console with these colours</figcaption>
    </figure>
  )
}
