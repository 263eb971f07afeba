/**
 * The console's local state (idb-keyval's `momentum-console` database, src/app/local-state.ts) from a
 * page of the console's origin, as the console stores it: the one definition for the e2e fixtures and
 * the bench, which drive the page with @playwright/test and playwright-core respectively (so a page is
 * anything with their `evaluate`).
 */
interface Evaluating {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>
}

/** Writes keys; null deletes a key. */
export async function writeConsoleLocal(page: Evaluating, values: Record<string, unknown>): Promise<void> {
  await page.evaluate(async (entries) => {
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('momentum-console')
      req.onupgradeneeded = () => req.result.createObjectStore('local')
      req.onsuccess = () => {
        const tx = req.result.transaction('local', 'readwrite')
        const store = tx.objectStore('local')
        for (const [k, v] of entries) {
          if (v === null) store.delete(k)
          else store.put(v, k)
        }
        tx.oncomplete = () => {
          req.result.close()
          resolve()
        }
        tx.onerror = () => reject(tx.error)
      }
      req.onerror = () => reject(req.error)
    })
  }, Object.entries(values))
}

/** Reads one key (undefined when absent or when the database does not exist yet). */
export function readConsoleLocal<T>(page: Evaluating, key: string): Promise<T | undefined> {
  return page.evaluate(
    (k) =>
      new Promise<T | undefined>((resolve) => {
        const req = indexedDB.open('momentum-console')
        req.onupgradeneeded = () => req.result.createObjectStore('local')
        req.onsuccess = () => {
          const get = req.result.transaction('local').objectStore('local').get(k)
          get.onsuccess = () => {
            req.result.close()
            resolve(get.result as T | undefined)
          }
          get.onerror = () => resolve(undefined)
        }
        req.onerror = () => resolve(undefined)
      }),
    key,
  )
}
