/**
 * /messages (issue 13, docs/messages-console.md): the composer above, the history below, and the
 * messages composed on this device that still wait in the outbox. Everything it reads comes from the
 * local mirror, so the screen opens and composes offline.
 */
import { MESSAGE_CHANNELS } from '../../../shared/messaging'
import { useCan } from '../../session/use-can'
import { Composer } from './Composer'
import { History } from './History'
import { useAll, usePendingRequests } from './use-messages'
import '../../components/ui.css'
import '../users/auth.css'
import './messages.css'

export function MessagesScreen() {
  const users = useAll('users') ?? []
  const groups = useAll('groups') ?? []
  const templates = useAll('templates') ?? []
  const pending = usePendingRequests()
  const can = useCan()
  const sends = MESSAGE_CHANNELS.some((c) => can(`messages/${c}:c`))

  return (
    <div className="messages-screen">
      <header className="screen-head">
        <h1 id="page-heading">Messages</h1>
        <p className="muted">Send e-mail, SMS, push and call invitations; follow what happened to each.</p>
      </header>
      {pending && pending.length > 0 && (
        <p className="panel messages-pending" role="status">
          {pending.length === 1 ? '1 message waits' : `${pending.length} messages wait`} on this device to be
          sent when the network is back.
        </p>
      )}
      {sends && <Composer users={users} groups={groups} templates={templates} />}
      <History />
    </div>
  )
}
