/**
 * Server configuration, read once from the environment (ARCHITECTURE §2) with safe defaults, so
 * `npm start` works with nothing set and tests pass an explicit object instead of touching process.env.
 */
import path from 'node:path'

export interface ServerConfig {
  port: number
  host: string
  /** Directory for the SQLite file, uploaded files, keys and secrets. */
  dataDir: string
  /** postgres://… switches the store to PostgreSQL. */
  databaseUrl?: string
  /** Used only when the admin user is created on first start. */
  adminPassword?: string
  /** 'none' skips the sample data on first start. */
  seed: 'sample' | 'none'
  /** Where the built console lives; served under /ui when present. */
  uiDir: string
  /** Web Server root (SPEC "static"), served at /. */
  staticDir: string
  /** SMTP server for the mail outbox, e.g. smtp://user:pass@127.0.0.1:2525; unset keeps mail queued. */
  smtpUrl?: string
  mailFrom: string
  /** OpenAI-compatible chat endpoint for the assistant (issue 3). */
  aiBaseUrl?: string
  aiModel?: string
  aiApiKey?: string
  /** How long the assistant waits for the model before answering 504 (MOMENTUM_AI_TIMEOUT_MS). */
  aiTimeoutMs?: number
  /** Anyone may POST /api/auth/register when true; otherwise it needs users:c. */
  openRegistration: boolean
  /** Origins allowed to call the API from another port (the Vite dev server calls {host}:8080, SPEC §7). */
  corsOrigins: string[]
  /** Silences the request log (tests). */
  quiet: boolean
}

/** `npm run dev` serves the console on port 5173 and it calls the API on this server directly. */
const DEV_ORIGINS = ['http://127.0.0.1:5173', 'http://localhost:5173']

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.MOMENTUM_DATA ?? './data')
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    adminPassword: env.MOMENTUM_ADMIN_PASSWORD || undefined,
    seed: env.MOMENTUM_SEED === 'none' ? 'none' : 'sample',
    uiDir: path.resolve(env.MOMENTUM_UI_DIR ?? 'dist/ui'),
    staticDir: path.resolve(env.MOMENTUM_STATIC_DIR ?? path.join(dataDir, 'static')),
    smtpUrl: env.MOMENTUM_SMTP_URL || undefined,
    mailFrom: env.MOMENTUM_MAIL_FROM ?? 'Momentum <no-reply@localhost>',
    aiBaseUrl: env.MOMENTUM_AI_URL || undefined,
    aiModel: env.MOMENTUM_AI_MODEL || undefined,
    aiApiKey: env.MOMENTUM_AI_KEY || undefined,
    aiTimeoutMs: env.MOMENTUM_AI_TIMEOUT_MS ? Number(env.MOMENTUM_AI_TIMEOUT_MS) : undefined,
    openRegistration: env.MOMENTUM_OPEN_REGISTRATION === 'true',
    corsOrigins: (env.MOMENTUM_CORS_ORIGINS ?? DEV_ORIGINS.join(','))
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    quiet: env.MOMENTUM_QUIET === 'true',
  }
}
