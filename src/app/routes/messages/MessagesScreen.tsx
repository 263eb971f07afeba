/**
 * /messages (issue 13, docs/using/messages.md): the composer above, the history below, and the
 * messages composed on this device that still wait in the outbox. Everything it reads comes from the
 * local mirror, so the screen opens and composes offline.
 */

import { MESSAGE_CHANNELS } from '../../../shared/messaging'
import { MESSAGES_CONSOLE_TEXT } from '../../../shared/texts'
import { NoAccess } from '../../session/NoAccess'
import { useCan, useMayUnder } from '../../session/use-can'
import { useDisplayStatus } from '../../sync-ui/use-display-status'
import { Composer } from './Composer'
import { History } from './History'
import { useAll, usePendingRequests } from './use-messages'
import '../../components/ui.css'
import '../../components/records.css'
import './messages.css'

export function MessagesScreen() {
  const users = useAll('users') ?? []
  const groups = useAll('groups') ?? []
  const templates = useAll('templates') ?? []
  const pending = usePendingRequests()
  // "…when the network is back" only while it is away: online, a waiting send is on its way, and the
  // composer's status row says so (issue 36).
  const offline = useDisplayStatus().network === 'offline'
  const can = useCan()
  const sends = MESSAGE_CHANNELS.some((c) => can(`messages/${c}:c`))
  const reads = useMayUnder('messages', 'r')
  // Neither a composer nor a history: say why in the shared words, not an empty page (issue 36).
  if (!sends && !reads) return <NoAccess section="Messages" needed="messages:r" />

  return (
    <div className="messages-screen">
      <header className="screen-head">
        <h1 id="page-heading">Messages</h1>
        <p className="muted">Send e-mail, SMS, push and call invitations; follow what happened to each.</p>
      </header>
      {offline && pending && pending.length > 0 && (
        <p className="panel messages-pending" role="status">
          {MESSAGES_CONSOLE_TEXT.waitingOffline(pending.length)}
        </p>
      )}
      {sends && <Composer users={users} groups={groups} templates={templates} />}
      <History />
    </div>
  )
}
