/**
 * The action's script in CodeMirror 6 with the JavaScript mode and completion of the host API
 * (host-api.ts). Imported only by the action editor, which is loaded only on /actions/{id}, so
 * CodeMirror and the JavaScript grammar stay off every other route. Mounted in a shadow root, as the
 * template editor is (templates/EditorRoot.tsx), so its generated styles stay within the console's CSP.
 * `goTo` (a line number) moves the cursor to the line a run's error points at.
 */
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript'
import CodeMirror, { EditorSelection, EditorView } from '@uiw/react-codemirror'
import { useEffect, useMemo, useRef } from 'react'
import { EditorRoot, editorAria, editorFrame } from '../../components/EditorRoot'
import { hostCompletions } from './host-api'

export interface ScriptFieldProps {
  value: string
  onChange: (value: string) => void
  readOnly: boolean
  error?: string | null
  /** { line } to jump to; a new object each time, so the same line can be asked for twice. */
  goTo?: { line: number } | null
}

export function ScriptField({ value, onChange, readOnly, error, goTo }: ScriptFieldProps) {
  const view = useRef<EditorView | null>(null)
  const extensions = useMemo(
    () => [
      javascript(),
      javascriptLanguage.data.of({ autocomplete: hostCompletions }),
      // Long lines wrap: a phone shows the whole script without a sideways scroll.
      EditorView.lineWrapping,
      editorFrame,
      editorAria('Code', error),
    ],
    [error],
  )
  useEffect(() => {
    const v = view.current
    if (!goTo || !v) return
    const line = v.state.doc.line(Math.min(Math.max(1, goTo.line), v.state.doc.lines))
    v.dispatch({ selection: EditorSelection.range(line.from, line.to), scrollIntoView: true })
    v.focus()
  }, [goTo])

  return (
    <div className={`field code-field${error ? ' has-error' : ''}`}>
      <span className="code-field-label">Code</span>
      <EditorRoot>
        <CodeMirror
          value={value}
          onChange={onChange}
          onCreateEditor={(v) => {
            view.current = v
          }}
          extensions={extensions}
          readOnly={readOnly}
          editable={!readOnly}
          minHeight="220px"
          maxHeight="560px"
          theme="none"
          basicSetup={{ closeBrackets: false, autocompletion: true, highlightActiveLine: false }}
        />
      </EditorRoot>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p className="field-hint">
          The script's body: it may <code>await</code> and <code>return</code>. Ctrl+Space lists{' '}
          <code>input</code>, <code>db</code>, <code>fetch</code> and <code>log</code>.
        </p>
      )}
    </div>
  )
}
