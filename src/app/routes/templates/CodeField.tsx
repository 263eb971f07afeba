/**
 * One labelled source field edited with CodeMirror 6 (HTML + Liquid, Liquid alone, or JSON). This
 * module, and with it CodeMirror, is imported only by the template editor, which is itself loaded
 * only on /templates/{id}, so the editor's ~150 KB stay out of the shell (docs/decisions/templates.md).
 * Bracket closing and autocompletion are off: they fight typing, pasting and phone keyboards here.
 * Mounted in a shadow root (EditorRoot), so its generated styles stay within the console's CSP.
 */
import { html } from '@codemirror/lang-html'
import { json } from '@codemirror/lang-json'
import { liquid } from '@codemirror/lang-liquid'
import CodeMirror, { EditorView } from '@uiw/react-codemirror'
import { useMemo } from 'react'
import { EditorRoot, editorAria, editorFrame } from '../../components/EditorRoot'

export type CodeLanguage = 'html' | 'liquid' | 'json'

export interface CodeFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  language: CodeLanguage
  readOnly?: boolean
  /** One line high (subject, title): still Liquid, but no line numbers. */
  singleLine?: boolean
  /** An error about this field (the server's line/column message), shown under it. */
  error?: string | null
  hint?: string
}

export function CodeField(props: CodeFieldProps) {
  const { label, language, singleLine, error, readOnly } = props
  const extensions = useMemo(
    () => [
      language === 'json' ? json() : language === 'html' ? liquid({ base: html() }) : liquid(),
      EditorView.lineWrapping,
      editorFrame,
      editorAria(label, error, !singleLine),
    ],
    [language, label, singleLine, error],
  )
  return (
    <div className={`field code-field${error ? ' has-error' : ''}`}>
      <span className="code-field-label">{label}</span>
      <EditorRoot>
        <CodeMirror
          value={props.value}
          onChange={props.onChange}
          extensions={extensions}
          readOnly={readOnly}
          editable={!readOnly}
          minHeight={singleLine ? undefined : '120px'}
          maxHeight="480px"
          theme="none"
          basicSetup={{
            lineNumbers: !singleLine,
            foldGutter: !singleLine,
            closeBrackets: false,
            autocompletion: false,
            highlightActiveLine: false,
            searchKeymap: true,
          }}
        />
      </EditorRoot>
      {props.hint && !error && <p className="field-hint">{props.hint}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
