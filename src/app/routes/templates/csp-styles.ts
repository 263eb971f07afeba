/**
 * CodeMirror under the console's Content-Security-Policy (`style-src 'self'`, src/server/http/
 * security-headers.ts). CodeMirror's themes are generated at run time by style-mod, which writes them
 * into a <style> element in <head>; the policy (rightly) blocks that element's rules, and the editor
 * falls apart. A CSP nonce would need a per-response index.html. Instead, while an editor is mounted,
 * the text of style-mod's own elements (their generated class names start with "ͼ") is copied into a
 * constructed stylesheet (document.adoptedStyleSheets), which the policy does not govern. No other
 * inline <style> is adopted, so the policy still blocks anything injected. docs/decisions/templates.md.
 */
const STYLE_MOD_CLASS = '.\u037c'

let users = 0
let sheet: CSSStyleSheet | null = null
let observer: MutationObserver | null = null

function copy(): void {
  if (!sheet) return
  const text = [...document.head.querySelectorAll('style')]
    .map((s) => s.textContent ?? '')
    .filter((t) => t.includes(STYLE_MOD_CLASS))
    .join('\n')
  sheet.replaceSync(text)
}

/** Starts copying (first editor); the returned function stops when the last editor unmounts. */
export function adoptEditorStyles(): () => void {
  if (typeof CSSStyleSheet === 'undefined' || !('adoptedStyleSheets' in document)) return () => {}
  if (users++ === 0) {
    sheet = new CSSStyleSheet()
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
    observer = new MutationObserver(copy)
    observer.observe(document.head, { childList: true, subtree: true, characterData: true })
  }
  copy()
  return () => {
    if (--users > 0) return
    observer?.disconnect()
    const s = sheet
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((x) => x !== s)
    sheet = null
    observer = null
  }
}
