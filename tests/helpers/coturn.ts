/**
 * coturn (Debian's /usr/bin/turnserver) on loopback with a TURN REST secret (use-auth-secret), as
 * docs/operating/video.md describes: shared by the video e2e test and the video benchmark (bench/suites/video.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export const TURNSERVER = '/usr/bin/turnserver'

export interface Coturn {
  port: number
  log(): string
  stop(): void
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

/** Starts coturn on a free loopback port; resolves once it listens (or throws with its output). */
export async function startCoturn(secret: string, port?: number): Promise<Coturn> {
  const listen = port ?? (await freePort())
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-turn-'))
  let output = ''
  const child: ChildProcess = spawn(
    TURNSERVER,
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${listen}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=momentum.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      // The browsers are on this machine: let the relay reach loopback peers.
      '--allow-loopback-peers',
      `--userdb=${path.join(dir, 'turndb')}`,
      `--pidfile=${path.join(dir, 'turn.pid')}`,
      '--log-file=stdout',
      '--simple-log',
      '--verbose',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const collect = (c: Buffer) => {
    output += c.toString()
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const deadline = Date.now() + 15_000
  while (!output.includes('Total General servers') && child.exitCode === null) {
    if (Date.now() > deadline) break
    await new Promise((r) => setTimeout(r, 50))
  }
  if (child.exitCode !== null || !output.includes('Total General servers')) {
    child.kill('SIGTERM')
    throw new Error(`turnserver did not start:\n${output}`)
  }
  return {
    port: listen,
    log: () => output,
    stop() {
      child.kill('SIGTERM')
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
