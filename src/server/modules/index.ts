/**
 * Every API module, registered under /api. Each module is one file with its routes, validation and
 * store calls together (STYLE habit 4); add a line here for a new one.
 */
import type { FastifyInstance } from 'fastify'
import type { Services } from '../services'

export async function registerModules(api: FastifyInstance, services: Services): Promise<void> {
  void api
  void services
}
