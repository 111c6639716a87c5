import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'

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
