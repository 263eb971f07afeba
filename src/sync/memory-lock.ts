/**
 * An in-process lock manager with Web Locks semantics (FIFO, exclusive, abortable while waiting). The
 * browser uses navigator.locks; a single process hosting several engines (tests, a node client) uses
 * this one, which behaves the same way for two engines sharing one database.
 */
import type { LockPort } from './ports'

export function createMemoryLocks(): LockPort {
  const queues = new Map<string, Array<() => void>>()
  const held = new Set<string>()

  const grant = (name: string) => {
    const next = queues.get(name)?.shift()
    if (next) next()
    else held.delete(name)
  }

  return {
    request(name, options, hold) {
      return new Promise<void>((resolve, reject) => {
        const run = () => {
          held.add(name)
          hold().then(
            () => {
              grant(name)
              resolve()
            },
            (err) => {
              grant(name)
              reject(err)
            },
          )
        }
        if (options.signal?.aborted) return reject(options.signal.reason)
        if (!held.has(name)) return run()
        const queue = queues.get(name) ?? []
        queues.set(name, queue)
        queue.push(run)
        options.signal?.addEventListener('abort', () => {
          const i = queue.indexOf(run)
          if (i >= 0) {
            queue.splice(i, 1)
            reject(options.signal?.reason)
          }
        })
      })
    },
  }
}
