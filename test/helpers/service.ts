import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEST_SECRET } from './app.js'
import { scratchDatabase } from './databases.js'
import type { Engine } from './engines.js'

// Tests call the service the way the bench does.
export { json } from '../../scripts/lib/http.js'

/**
 * A time limit for work that starts processes and builds, stretched by how busy the machine is: `baseMs` on an
 * idle machine, times the load per core when more is queued for the cores than they run (a loaded CI runner
 * or a shared machine), so a slow machine is not mistaken for a broken service.
 */
export function machineTimeoutMs (baseMs: number): number {
  return Math.round(baseMs * Math.max(1, loadavg()[0]! / availableParallelism()))
}

/**
 * The environment of a service process on `engine`: `settings`, a DATA_DIR of its own (named from `prefix`) and, on
 * postgres, a scratch database of its own (DATABASE_URL, with the JWT_SECRET the service then requires). `drop()` removes both.
 */
export async function serviceEnvironment (engine: Engine, prefix: string, settings: Record<string, string> = {}): Promise<{ env: Record<string, string>, drop: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  const scratch = engine === 'postgres' ? await scratchDatabase('postgres') : undefined
  const env: Record<string, string> = { DATA_DIR: dataDir, ...settings, ...(scratch !== undefined ? { DATABASE_URL: scratch.url as string, JWT_SECRET: TEST_SECRET } : {}) }
  return {
    env,
    drop: async () => {
      await scratch?.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** The real service in a child process, as `npm start` runs it (through tsx, so no build is needed). */
export interface RunningService {
  child: ChildProcess
  base: string
  stderr(): string
  /** Everything it wrote to stdout (its log lines, at LOG_LEVEL). */
  stdout(): string
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>
}

/**
 * By default the TypeScript entry through tsx; `command` runs something else, such as `npm start`. It runs in the
 * test's working directory unless `options.cwd` names another (such as the repository's root).
 */
export async function startService (env: Record<string, string>, command: readonly string[] = [process.execPath, '--import', 'tsx', 'src/main.ts'], options: { cwd?: string | URL } = {}): Promise<RunningService> {
  const [program, ...args] = command as [string, ...string[]]
  const child = spawn(program, args, {
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  const base = await new Promise<string>((resolve, reject) => {
    const limitMs = machineTimeoutMs(120_000)
    const timer = setTimeout(() => {
      // Stopped, or it would start later and keep the test process (and the suite) from ever ending.
      child.kill('SIGTERM')
      reject(new Error(`service did not start in ${limitMs / 1000} s: ${stderr}`))
    }, limitMs)
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /the API at (http:\/\/\S+\/api\/v1)/.exec(stdout)
      if (match?.[1] !== undefined) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`service exited (${code}) before listening: ${stderr}`))
    }, () => {})
  })
  return { child, base, stderr: () => stderr, stdout: () => stdout, exited }
}
