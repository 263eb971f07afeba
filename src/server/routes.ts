/**
 * Every API module, registered under /api. Each module is one file with its routes, validation and
 * store calls together (STYLE habit 4); add a line here for a new one.
 */
import fastifyMultipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import { UPLOAD_FILES_MAX, UPLOAD_LIMIT_BYTES } from '../shared/constants'
import { actionsModule } from './actions/routes'
import { aiModule } from './ai/routes'
import { analyticsModule } from './analytics/routes'
import { authModule } from './auth/routes'
import { tokensModule } from './auth/token-routes'
import { collectionsModule } from './collections/routes'
import { batchModule } from './data/batch-routes'
import { dataModule } from './data/routes'
import { formsModule } from './forms/routes'
import { logsModule } from './logs/routes'
import { messagesModule } from './messages/routes'
import { paymentsModule } from './payments/routes'
import { pdfModule } from './pdf/routes'
import { notificationsModule } from './push/routes'
import { registerSync } from './realtime/routes'
import { reportsModule } from './reports/routes'
import { schemasModule } from './schemas/routes'
import type { Services } from './services'
import { settingsModule } from './settings/routes'
import { storageModule } from './storage'
import { templatesModule } from './templates/routes'
import { toolsModule } from './tools/routes'
import { userImageRoutes } from './users/image-routes'
import { usersModule } from './users/routes'
import { videoModule } from './video/routes'

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
