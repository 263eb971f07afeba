/**
 * Where a CodeMirror editor is mounted: an open shadow root, so its styles never meet the console's
 * Content-Security-Policy (`style-src 'self'`, src/server/http/security-headers.ts; issue 36 #8).
 * CodeMirror's themes are generated at run time by style-mod. Mounted in a document, style-mod writes
 * them into a <style> element in <head>, which the policy blocks and reports on every update (15–104
 * violations per visit); mounted in a root without a `head` (a shadow root) it puts the same rules in
 * one constructed stylesheet (adoptedStyleSheets, shared by every editor of the page), which CSP does
 * not govern. No <style> element, no violation, the policy untouched. docs/decisions/templates.md.
 *
 * The console's stylesheets do not reach into the shadow root: the field's frame (border, focus
 * outline) is on the host, `.code-editor-host` in code-editor.css; colours and fonts inherit. An
 * id reference (aria-labelledby) does not cross the boundary either, hence `editorAria`.
 */
import { EditorView } from '@uiw/react-codemirror'
import { type ReactNode, useCallback, useState } from 'react'
import { createPortal } from 'react-dom'
import './code-editor.css'

export function EditorRoot({ children }: { children: ReactNode }) {
  const [root, setRoot] = useState<ShadowRoot | null>(null)
  // StrictMode attaches twice: the host keeps the shadow root it already has.
  const attach = useCallback((host: HTMLDivElement | null) => {
    if (host) setRoot(host.shadowRoot ?? host.attachShadow({ mode: 'open' }))
  }, [])
  return (
    <div ref={attach} className="code-editor-host">
      {root && createPortal(children, root)}
    </div>
  )
}

/**
 * The editable element's name and error, as attributes that need no id across the shadow boundary:
 * its visible label's words as `aria-label`, the error as `aria-description`.
 */
export function editorAria(label: string, error: string | null | undefined, multiline = true) {
  return EditorView.contentAttributes.of({
    'aria-label': label,
    'aria-multiline': multiline ? 'true' : 'false',
    ...(error ? { 'aria-description': error, 'aria-invalid': 'true' } : {}),
  })
}

/** The host draws the focus outline (code-editor.css): CodeMirror's own dotted one is turned off. */
export const editorFrame = EditorView.theme({ '&.cm-focused': { outline: 'none' } })
