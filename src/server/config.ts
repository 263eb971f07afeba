/**
 * Server configuration, read once from the environment (ARCHITECTURE §2) with safe defaults, so
 * `npm start` works with nothing set and tests pass an explicit object instead of touching process.env.
 */
import path from 'node:path'
import { isLoopbackHost } from './bootstrap'
import { parseTrustProxy, type TrustProxy } from './trust-proxy'

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
  /**
   * Origins (or bare hosts, read as https) the hosted login may hand a token to, besides the server's
   * own origin and the `public_url` setting (MOMENTUM_TRUSTED_HOSTS, issue 10 #5).
   */
  trustedHosts: string[]
  /**
   * The console's public origin for links in mails (MOMENTUM_PUBLIC_URL); the public_url setting
   * wins when set. Without either, reset mails are refused rather than built from the Host header.
   */
  publicUrl?: string
  /** Silences the request log (tests). */
  quiet: boolean
  /** Overrides BODY_IDLE_TIMEOUT_MS (tests use a short one); see src/server/http/timeouts.ts. */
  bodyIdleTimeoutMs?: number
  /**
   * MOMENTUM_PUSH_ALLOW_PRIVATE: push endpoints may be http:// and on loopback or private addresses
   * (a local push service, the tests' endpoint). Off by default: the server would post to them.
   */
  pushAllowPrivate: boolean
  /**
   * The SMS provider, Twilio's Messages API or a service speaking it (MOMENTUM_SMS_URL, _ACCOUNT_SID,
   * _AUTH_TOKEN, _FROM; docs/operating/messages.md); unset keeps SMS records queued.
   */
  sms?: { url: string; accountSid: string; authToken: string; from: string }
  /** Overrides the message queue's retry, lease and tick constants (tests use short ones). */
  messageTiming?: { retryBaseMs?: number; maxAttempts?: number; leaseMs?: number; tickMs?: number }
  /** How long a call invitation rings before it counts as missed (tests use a short one; VIDEO_RING_MS). */
  videoRingMs?: number
  /** Heartbeat of the video relay between instances (tests use a short one; VIDEO_RELAY_ALIVE_MS). */
  videoRelayAliveMs?: number
  /**
   * MOMENTUM_PDF_ALLOW_HOSTS: hosts (or host:port) POST /api/pdf {url} may load although they are on
   * loopback or a private network; by default those are refused (docs/operating/pdf.md#security).
   */
  pdfAllowHosts: string[]
  /** Chromium for PDFs (CHROMIUM_PATH, default /usr/bin/chromium, as scripts/setup-browser.mjs installs). */
  chromiumPath: string
  /**
   * Most bytes each root's files may take (MOMENTUM_STORAGE_QUOTA_BYTES, MOMENTUM_STATIC_QUOTA_BYTES);
   * unset or 0 is no quota. Uploads, resumable uploads and copies past it are 413 (storage/quota.ts).
   */
  storageQuota?: { storage?: number; static?: number }
  /**
   * An S3-compatible bucket for the Storage and Web Server files instead of the data dir
   * (MOMENTUM_S3_BUCKET and friends, docs/operating/storage.md "S3-compatible storage"); unset keeps them on disk.
   */
  s3?: S3Config
  /**
   * Stripe (MOMENTUM_STRIPE_SECRET_KEY, _WEBHOOK_SECRET, _API_URL; docs/operating/payments.md). Unset, checkouts
   * use the built-in TEST provider: no account, no money, test card numbers only.
   */
  stripe?: { secretKey: string; webhookSecret?: string; apiUrl?: string; jsUrl?: string }
  /**
   * Most POST /api/transactions/init calls per IP and per user in CHECKOUT_INIT_WINDOW_MS (default
   * CHECKOUT_INIT_MAX_PER_IP / _PER_USER); MOMENTUM_CHECKOUT_INIT_LIMIT sets both (the e2e fixtures
   * raise it: every test there starts its checkouts from 127.0.0.1).
   */
  checkoutInitLimit?: { perIp: number; perUser: number }
  /** Whose X-Forwarded-For gives `req.ip` (MOMENTUM_TRUST_PROXY, src/server/trust-proxy.ts); off by default. */
  trustProxy?: TrustProxy
}

export interface S3Config {
  bucket: string
  /** http(s)://host:port of a non-AWS service (MinIO, s3rver …); unset means AWS itself. */
  endpoint?: string
  region: string
  /** Unset: the SDK's usual chain (AWS_ACCESS_KEY_ID, a profile, an instance role). */
  accessKeyId?: string
  secretAccessKey?: string
  /** Prepended to every key, e.g. `momentum/`; the roots live under `{prefix}storage/` and `{prefix}static/`. */
  prefix: string
  /** Bucket in the path (`endpoint/bucket/key`), what non-AWS services expect; default on with an endpoint. */
  forcePathStyle: boolean
}

function s3FromEnv(env: NodeJS.ProcessEnv): S3Config | undefined {
  const bucket = env.MOMENTUM_S3_BUCKET?.trim()
  if (!bucket) return undefined
  const endpoint = env.MOMENTUM_S3_ENDPOINT?.trim() || undefined
  const prefix = env.MOMENTUM_S3_PREFIX?.trim() ?? ''
  return {
    bucket,
    endpoint,
    region: env.MOMENTUM_S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.MOMENTUM_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.MOMENTUM_S3_SECRET_ACCESS_KEY || undefined,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    forcePathStyle: env.MOMENTUM_S3_PATH_STYLE ? env.MOMENTUM_S3_PATH_STYLE === 'true' : !!endpoint,
  }
}

/** All four MOMENTUM_SMS_* variables, or no SMS provider. */
function smsFromEnv(env: NodeJS.ProcessEnv): ServerConfig['sms'] {
  const url = env.MOMENTUM_SMS_URL?.trim()
  const accountSid = env.MOMENTUM_SMS_ACCOUNT_SID?.trim()
  const authToken = env.MOMENTUM_SMS_AUTH_TOKEN
  const from = env.MOMENTUM_SMS_FROM?.trim()
  return url && accountSid && authToken && from ? { url, accountSid, authToken, from } : undefined
}

/** A byte quota from the environment: a positive whole number, else none. */
function quotaBytes(value: string | undefined): number | undefined {
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/** `npm run dev` serves the console on port 5173 and it calls the API on this server directly. */
const DEV_ORIGINS = ['http://127.0.0.1:5173', 'http://localhost:5173']

/**
 * The dev server's origins are allowed by default only where a dev server can be: a server listening
 * on a loopback address outside NODE_ENV=production (`npm run serve` beside `npm run dev`). A server
 * on a network address, or in production, allows no other origin unless MOMENTUM_CORS_ORIGINS says so.
 */
function defaultCorsOrigins(env: NodeJS.ProcessEnv, host: string): string[] {
  return env.NODE_ENV !== 'production' && isLoopbackHost(host) ? DEV_ORIGINS : []
}

const list = (value: string): string[] =>
  value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.MOMENTUM_DATA ?? './data')
  const host = env.HOST ?? '127.0.0.1'
  return {
    port: Number(env.PORT ?? 8080),
    host,
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
    corsOrigins:
      env.MOMENTUM_CORS_ORIGINS === undefined
        ? defaultCorsOrigins(env, host)
        : list(env.MOMENTUM_CORS_ORIGINS),
    trustedHosts: list(env.MOMENTUM_TRUSTED_HOSTS ?? ''),
    publicUrl: env.MOMENTUM_PUBLIC_URL?.trim() || undefined,
    quiet: env.MOMENTUM_QUIET === 'true',
    pushAllowPrivate: env.MOMENTUM_PUSH_ALLOW_PRIVATE === 'true',
    sms: smsFromEnv(env),
    pdfAllowHosts: list(env.MOMENTUM_PDF_ALLOW_HOSTS ?? ''),
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    storageQuota: {
      storage: quotaBytes(env.MOMENTUM_STORAGE_QUOTA_BYTES),
      static: quotaBytes(env.MOMENTUM_STATIC_QUOTA_BYTES),
    },
    s3: s3FromEnv(env),
    trustProxy: parseTrustProxy(env.MOMENTUM_TRUST_PROXY),
    checkoutInitLimit: /^[1-9]\d{0,8}$/.test(env.MOMENTUM_CHECKOUT_INIT_LIMIT ?? '')
      ? {
          perIp: Number(env.MOMENTUM_CHECKOUT_INIT_LIMIT),
          perUser: Number(env.MOMENTUM_CHECKOUT_INIT_LIMIT),
        }
      : undefined,
    stripe: env.MOMENTUM_STRIPE_SECRET_KEY
      ? {
          secretKey: env.MOMENTUM_STRIPE_SECRET_KEY,
          webhookSecret: env.MOMENTUM_STRIPE_WEBHOOK_SECRET || undefined,
          apiUrl: env.MOMENTUM_STRIPE_API_URL?.trim() || undefined,
          // Stripe.js for the checkout page (default STRIPE_JS_URL); its origin joins that page's CSP.
          jsUrl: env.MOMENTUM_STRIPE_JS_URL?.trim() || undefined,
        }
      : undefined,
  }
}
