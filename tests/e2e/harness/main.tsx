/**
 * A page built from the console's real feedback modules (toasts, confirmation dialog, edit state and
 * leave guard, error reporter) for tests/e2e/feedback.spec.ts, because the screens that will use them
 * (users, settings, data editors) are not built yet. Nothing here is mocked: it is the same code the
 * console bundles, mounted on a plain page with its own two routes.
 */
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { Link, Route, Router, Switch } from 'wouter'
import { api } from '../../../src/app/api/client'
import { ConfirmDialogHost } from '../../../src/app/feedback/ConfirmDialog'
import { installFeedback } from '../../../src/app/feedback/install'
import { confirmDelete, notifyBatchSaved, notifyDeleted, notifySaved } from '../../../src/app/feedback/notify'
import { Toaster } from '../../../src/app/feedback/Toaster'
import { toast } from '../../../src/app/feedback/toast-store'
import { useEditState } from '../../../src/app/hooks/use-edit-state'
import { useShortcut } from '../../../src/app/hooks/use-shortcut'

function Controls() {
  return (
    <div>
      <button type="button" onClick={() => toast.success('It worked')}>
        raise success
      </button>
      <button type="button" onClick={() => toast.error('It failed')}>
        raise error
      </button>
      <button type="button" onClick={() => toast.warning('Be careful')}>
        raise warning
      </button>
      <button type="button" onClick={() => notifySaved('Alice', true)}>
        saved
      </button>
      <button type="button" onClick={() => notifyBatchSaved(2, 3, 'users', true)}>
        batch saved
      </button>
      <button type="button" onClick={() => notifyDeleted(1, 2, true)}>
        deleted partly
      </button>
      {[1, 3].map((n) => (
        <button
          key={n}
          type="button"
          onClick={async () => {
            const ok = await confirmDelete(n, n === 1 ? 'user' : 'users')
            document.getElementById('answer')!.textContent = ok ? 'confirmed' : 'cancelled'
          }}
        >
          {`ask delete ${n}`}
        </button>
      ))}
      <button
        type="button"
        onClick={() => {
          setTimeout(() => {
            throw new Error('Harness exploded')
          })
        }}
      >
        throw
      </button>
      <button
        type="button"
        onClick={() => void Promise.reject(Object.assign(new Error('No such record'), { status: 404 }))}
      >
        reject
      </button>
      <button
        type="button"
        onClick={() => {
          // A real API call without a session: the server answers 401, which the client treats as a
          // session expiry; nothing here catches the rejection (`finally` passes it on unhandled).
          void api.get('/api/users').finally(() => {
            document.getElementById('answer')!.textContent = 'asked without a session'
          })
        }}
      >
        reject 401
      </button>
      <output id="answer" />
    </div>
  )
}

function Form() {
  const edit = useEditState({ name: 'Ada', tags: ['a'] })
  const [saves, setSaves] = useState(0)
  useShortcut('save', () => {
    setSaves(saves + 1)
    edit.commit()
  })
  return (
    <form>
      <label>
        Name
        <input
          value={edit.value.name}
          onChange={(e) => edit.setValue({ ...edit.value, name: e.target.value })}
        />
      </label>
      <p data-testid="state">{edit.modified ? 'modified' : 'clean'}</p>
      <p data-testid="saves">{saves}</p>
      <button type="button" onClick={edit.undo} disabled={!edit.canUndo}>
        Undo
      </button>
      <button type="button" onClick={edit.redo} disabled={!edit.canRedo}>
        Redo
      </button>
      <Link href="/other">to other page</Link>
    </form>
  )
}

function App() {
  return (
    <Router>
      <Controls />
      <Switch>
        <Route path="/other">
          <h1>Other page</h1>
          <Link href="/">back to form</Link>
        </Route>
        <Route>
          <Form />
        </Route>
      </Switch>
      <Toaster />
      <ConfirmDialogHost />
    </Router>
  )
}

installFeedback()
createRoot(document.getElementById('root')!).render(<App />)
