/**
 * Every API module, registered under /api. Each module is one file with its routes, validation and
 * store calls together (STYLE habit 4); add a line here for a new one.
 */
import fastifyMultipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import { UPLOAD_FILES_MAX, UPLOAD_LIMIT_BYTES } from '../../shared/constants'
import type { Services } from '../services'
import { actionsModule } from './actions'
import { aiModule } from './ai'
import { analyticsModule } from './analytics'
import { authModule } from './auth'
import { batchModule } from './batch'
import { collectionsModule } from './collections'
import { dataModule } from './data'
import { formsModule } from './forms'
import { logsModule } from './logs'
import { messagesModule } from './messages'
import { notificationsModule } from './notifications'
import { paymentsModule } from './payments'
import { pdfModule } from './pdf'
import { reportsModule } from './reports'
import { schemasModule } from './schemas'
import { settingsModule } from './settings'
import { storageModule } from './storage'
import { registerSync } from './sync'
import { templatesModule } from './templates'
import { tokensModule } from './tokens'
import { toolsModule } from './tools'
import { userImageRoutes } from './user-images'
import { usersModule } from './users'
import { videoModule } from './video'

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
