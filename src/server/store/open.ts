/** Picks the store: PostgreSQL when DATABASE_URL is set, else SQLite in the data dir (the default). */
import path from 'node:path'
import type { ServerConfig } from '../config'
import { openSqliteStore } from './sqlite'
import type { DocumentStore } from './types'

export async function openStore(config: ServerConfig): Promise<DocumentStore> {
  if (config.databaseUrl) {
    throw new Error(
      'DATABASE_URL (PostgreSQL) is not supported yet; unset it to use the embedded SQLite store',
    )
  }
  return openSqliteStore(path.join(config.dataDir, 'momentum.db'))
}
