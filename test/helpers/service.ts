import { spawn, type ChildProcess } from 'node:child_process'

// Tests call the service the way the bench does.
export { json } from '../../scripts/lib/http.js'

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

/** By default the TypeScript entry through tsx; `command` runs something else, such as `npm start`. */
export async function startService (env: Record<string, string>, command: readonly string[] = [process.execPath, '--import', 'tsx', 'src/main.ts']): Promise<RunningService> {
  const [program, ...args] = command as [string, ...string[]]
  const child = spawn(program, args, {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in 120 s: ${stderr}`)), 120_000)
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
