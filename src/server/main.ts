/** `npm run serve`: start the platform server from the environment and say where the console is. */
import { configFromEnv } from './config'
import { startServer } from './server'

const config = configFromEnv()
const server = await startServer(config)
console.log(`\nMomentum Console: ${server.url}/ui/`)
if (server.bootstrap.adminCreated) {
  console.log(
    `First start: created the admin user.\n  username: admin\n  password: ${server.bootstrap.adminPassword}`,
  )
  console.log('  (shown once; set MOMENTUM_ADMIN_PASSWORD before the first start to choose it)\n')
}
const stop = async () => {
  await server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
