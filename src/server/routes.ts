/**
 * Every domain's routes, registered under /api: each domain is a folder `src/server/<domain>/` whose
 * `routes.ts` opens with its route table (method, path, permission, write rules; http/route-table.ts)
 * and registers the handlers beside their validation and store calls (STYLE habit 4). A new domain
 * adds a line to registerModules and its table to ROUTE_TABLES; tests/server/route-tables.test.ts fails
 * until both agree with what the app registers. The manifest and the Web Server root are registered
 * outside /api by app.ts, and listed here too.
 */
import fastifyMultipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import { UPLOAD_FILES_MAX, UPLOAD_LIMIT_BYTES } from '../shared/constants'
import { ACTIONS_ROUTES, actionsModule } from './actions/routes'
import { AI_ROUTES, aiModule } from './ai/routes'
import { ANALYTICS_ROUTES, analyticsModule } from './analytics/routes'
import { AUTH_ROUTES, authModule } from './auth/routes'
import { TOKEN_ROUTES, tokensModule } from './auth/token-routes'
import { COLLECTIONS_ROUTES, collectionsModule } from './collections/routes'
import { BATCH_ROUTES, batchModule } from './data/batch-routes'
import { DATA_ROUTES, dataModule } from './data/routes'
import { FORMS_ROUTES, formsModule } from './forms/routes'
import type { RouteTable } from './http/route-table'
import { LOGS_ROUTES, logsModule } from './logs/routes'
import { MESSAGE_REQUEST_ROUTES } from './messages/request-routes'
import { MESSAGES_ROUTES, messagesModule } from './messages/routes'
import { PAYMENTS_ROUTES, paymentsModule } from './payments/routes'
import { PDF_ROUTES, pdfModule } from './pdf/routes'
import { notificationsModule, PUSH_ROUTES } from './push/routes'
import { REALTIME_ROUTES, registerSync } from './realtime/routes'
import { REPORTS_ROUTES, reportsModule } from './reports/routes'
import { SCHEMAS_ROUTES, schemasModule } from './schemas/routes'
import type { Services } from './services'
import { MANIFEST_ROUTES } from './settings/manifest-routes'
import { SETTINGS_ROUTES, settingsModule } from './settings/routes'
import { storageModule } from './storage'
import { STORAGE_ROUTES } from './storage/routes'
import { TEMPLATES_ROUTES, templatesModule } from './templates/routes'
import { TOOLS_ROUTES, toolsModule } from './tools/routes'
import { USER_IMAGE_ROUTES, userImageRoutes } from './users/image-routes'
import { USERS_ROUTES, usersModule } from './users/routes'
import { VIDEO_ROUTES, videoModule } from './video/routes'

/** Every domain's table, in registration order; the route-tables test holds them to the app. */
export const ROUTE_TABLES: Readonly<Record<string, RouteTable>> = {
  ai: AI_ROUTES,
  auth: AUTH_ROUTES,
  realtime: REALTIME_ROUTES,
  collections: COLLECTIONS_ROUTES,
  schemas: SCHEMAS_ROUTES,
  reports: REPORTS_ROUTES,
  forms: FORMS_ROUTES,
  payments: PAYMENTS_ROUTES,
  users: USERS_ROUTES,
  tokens: TOKEN_ROUTES,
  settings: SETTINGS_ROUTES,
  tools: TOOLS_ROUTES,
  data: DATA_ROUTES,
  batch: BATCH_ROUTES,
  logs: LOGS_ROUTES,
  push: PUSH_ROUTES,
  messages: MESSAGES_ROUTES,
  'message-requests': MESSAGE_REQUEST_ROUTES,
  storage: STORAGE_ROUTES,
  'user-images': USER_IMAGE_ROUTES,
  templates: TEMPLATES_ROUTES,
  actions: ACTIONS_ROUTES,
  pdf: PDF_ROUTES,
  analytics: ANALYTICS_ROUTES,
  video: VIDEO_ROUTES,
  manifest: MANIFEST_ROUTES,
}

export async function registerModules(api: FastifyInstance, services: Services): Promise<void> {
  void api
  void services
  await aiModule(api, services)
  await authModule(api, services)
  await registerSync(api, services)
  await collectionsModule(api, services)
  await schemasModule(api, services)
  await reportsModule(api, services)
  await formsModule(api, services)
  await paymentsModule(api, services)
  await usersModule(api, services)
  await tokensModule(api, services)
  await settingsModule(api, services)
  await toolsModule(api, services)
  await dataModule(api, services)
  await batchModule(api, services)
  await logsModule(api, services)
  await notificationsModule(api, services)
  await messagesModule(api, services)
  // Multipart parsing only where files are uploaded: the plugin hangs three hooks (and a listener on
  // every response) on each route of its scope, which cost a read a tenth of its time (issue 20).
  await api.register(async (uploads) => {
    await uploads.register(fastifyMultipart, {
      limits: { fileSize: UPLOAD_LIMIT_BYTES, files: UPLOAD_FILES_MAX },
    })
    await storageModule(uploads, services)
    userImageRoutes(uploads, services)
  })
  await templatesModule(api, services)
  await actionsModule(api, services)
  await pdfModule(api, services)
  await analyticsModule(api, services)
  await videoModule(api, services)
}
