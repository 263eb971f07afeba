/**
 * A desktop notification server for tests: a private D-Bus session bus (the system's `dbus-daemon`)
 * with a small org.freedesktop.Notifications service on it (Desktop Notifications spec 1.2, through
 * the `dbus-next` package). Chromium on Linux hands web notifications to exactly this service when it
 * finds one on its session bus (DBUS_SESSION_BUS_ADDRESS), and treats the `ActionInvoked(id,
 * "default")` signal as the user clicking the notification — a real click, so the service worker's
 * notificationclick may focus a window or open one, which a script-made event may not.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import dbus from 'dbus-next'

const NAME = 'org.freedesktop.Notifications'
const PATH = '/org/freedesktop/Notifications'
/** NotificationClosed reason 3: closed by a call to CloseNotification. */
const CLOSED_BY_CALL = 3

export interface ShownNotification {
  id: number
  app: string
  summary: string
  body: string
  actions: string[]
  closed: boolean
}

export interface NotificationDaemon {
  /** Pass as DBUS_SESSION_BUS_ADDRESS to the browser. */
  address: string
  shown: ShownNotification[]
  /**
   * What a user's click on the notification sends: the `default` action, or the key of one of its
   * buttons (`actions` holds key, label, key, label… as the notification spec has it).
   */
  click(id: number, action?: string): void
  close(): Promise<void>
}

export const DBUS_DAEMON = '/usr/bin/dbus-daemon'
export const hasDbusDaemon = () => fs.existsSync(DBUS_DAEMON)

class Notifications extends dbus.interface.Interface {
  shown: ShownNotification[] = []
  private next = 1

  GetCapabilities(): string[] {
    // body and actions are what Chromium requires before it uses the service at all.
    return ['body', 'actions']
  }

  GetServerInformation(): string[] {
    return ['momentum-test-notifications', 'momentum', '1.0', '1.2']
  }

  Notify(
    app: string,
    replacesId: number,
    _icon: string,
    summary: string,
    body: string,
    actions: string[],
    _hints: unknown,
    _timeout: number,
  ): number {
    const existing = replacesId ? this.shown.find((n) => n.id === replacesId) : undefined
    if (existing) {
      Object.assign(existing, { app, summary, body, actions })
      return existing.id
    }
    const id = this.next++
    this.shown.push({ id, app, summary, body, actions, closed: false })
    return id
  }

  CloseNotification(id: number): void {
    const n = this.shown.find((s) => s.id === id)
    if (!n || n.closed) return
    n.closed = true
    this.NotificationClosed(id, CLOSED_BY_CALL)
  }

  // Signals: dbus-next emits the returned values when these are called.
  ActionInvoked(id: number, action: string): [number, string] {
    return [id, action]
  }

  NotificationClosed(id: number, reason: number): [number, number] {
    return [id, reason]
  }
}

Notifications.configureMembers({
  methods: {
    GetCapabilities: { outSignature: 'as' },
    GetServerInformation: { outSignature: 'ssss' },
    Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' },
    CloseNotification: { inSignature: 'u' },
  },
  signals: {
    ActionInvoked: { signature: 'us' },
    NotificationClosed: { signature: 'uu' },
  },
})

function startBus(): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(DBUS_DAEMON, ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n')[0]
      if (out.includes('\n') && line) resolve({ child, address: line.trim() })
    })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)))
  })
}

export async function startNotificationDaemon(): Promise<NotificationDaemon> {
  const { child, address } = await startBus()
  const bus = dbus.sessionBus({ busAddress: address })
  const service = new Notifications(NAME)
  bus.export(PATH, service)
  await bus.requestName(NAME, 0)
  return {
    address,
    shown: service.shown,
    click(id, action = 'default') {
      service.ActionInvoked(id, action)
    },
    async close() {
      bus.disconnect()
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}
