/**
 * Opens an idb-keyval database declared in databases.ts. May throw synchronously where IndexedDB is
 * refused (an opaque origin, some private modes): callers then keep their values in memory.
 */
import { createStore, type UseStore } from 'idb-keyval'
import type { KeyValueDatabase } from './databases'

export const keyValueStore = (db: KeyValueDatabase): UseStore => createStore(db.name, db.store)
