/** `npm run serve`: start the platform server from the environment and say where the console is. */
import { configFromEnv } from './config'
import { startServer } from './server'

const config = configFromEnv()
const server = await startServer(config)
console.log(`\nMomentum Console: ${server.url}/ui/`)
if (server.bootstrap.adminCreated) {
  // A password the operator chose is never echoed (it may sit in shell history, not in logs too).
  const shown = config.adminPassword ? '(from MOMENTUM_ADMIN_PASSWORD)' : server.bootstrap.adminPassword
  console.log(`First start: created the admin user.\n  username: admin\n  password: ${shown}`)
  const samples = Object.entries(server.bootstrap.samplePasswords ?? {})
  if (samples.length) {
    console.log('Sample accounts:')
    for (const [user, password] of samples) console.log(`  ${user} / ${password}`)
  }
  console.log('  (shown once; set MOMENTUM_ADMIN_PASSWORD before the first start to choose it)\n')
}
const stop = async () => {
  await server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
