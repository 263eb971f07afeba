/**
 * The services every module receives. Built once per server; modules take them as a parameter instead
 * of importing singletons, so tests run many servers side by side in one process.
 */
import type { LogLevel } from '../shared/constants'
import type { TokenService } from './auth/tokens'
import type { ServerConfig } from './config'
import type { MailService } from './mail/outbox'
import type { Hub } from './realtime/hub'
import type { DocumentStore } from './store/types'

export interface Services {
  config: ServerConfig
  store: DocumentStore
  tokens: TokenService
  /** The mail outbox: queue() stores a mail in `_mail` and sends it when SMTP is configured. */
  mail: MailService
  /** Websocket topic fan-out: publish(topic, payload) reaches the topic's subscribers. */
  hub: Hub
  /** Permissions of a user: the union of their groups' permissions. */
  permissionsOf(user: string): Promise<string[]>
  /** The kept permissions, when known right without a store read (the guard's synchronous path). */
  permissionsKept?(user: string): string[] | undefined
  /** Appends to the server's own log channel (logs/server) and to stdout. */
  serverLog(level: LogLevel, message: string, ctx?: Record<string, unknown>): void
}
