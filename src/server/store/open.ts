/** Picks the store: PostgreSQL when DATABASE_URL is set, else SQLite in the data dir (the default). */
import path from 'node:path'
import type { ServerConfig } from '../config'
import { openPostgresStore } from './postgres'
import { openSqliteStore } from './sqlite'
import type { DocumentStore } from './types'

export async function openStore(config: ServerConfig): Promise<DocumentStore> {
  if (config.databaseUrl) return openPostgresStore(config.databaseUrl)
  return openSqliteStore(path.join(config.dataDir, 'momentum.db'))
}
