// Runs against the service with autocannon.
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import type { Options } from './options.js'
import { Latencies, result, type Result } from './results.js'
import { generator, loginTarget, type Context, type Generator } from './scenarios.js'
import { cpuPerRequest, cpuSnapshot, memorySampler } from './usage.js'

/** One autocannon run; latencies are taken from each response (float ms), not autocannon's whole-ms histogram. */
function cannon (options: Options, next: Generator, settings: { connections: number, duration: number, overallRate?: number }, latencies?: Latencies): Promise<void> {
  const url = new URL(options.base)
  const prefix = url.pathname.replace(/\/$/, '')
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: url.origin,
      connections: settings.connections,
      duration: settings.duration,
      ...(settings.overallRate !== undefined ? { overallRate: settings.overallRate } : {}),
      requests: [{
        setupRequest: (request) => {
          const target = next()
          const headers: Record<string, string> = {}
          if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`
          if (target.body !== undefined) headers['content-type'] = 'application/json'
          return { ...request, method: target.method, path: `${prefix}${target.path}`, headers, ...(target.body !== undefined ? { body: target.body } : {}) }
        },
      }],
    }, (error) => { if (error !== null) reject(error); else resolve() })
    if (latencies !== undefined) {
      instance.on('response', (_client, status, _bytes, ms) => latencies.add(ms, status))
      instance.on('reqError', () => latencies.add(0, 'error'))
    }
  })
}

export async function runHttp (scenario: Parameters<typeof generator>[0], ctx: Context): Promise<Result> {
  const { options } = ctx
  const next = generator(scenario, ctx)
  if (options.warmup > 0) await cannon(options, next, { connections: options.connections, duration: options.warmup })
  const latencies = new Latencies()
  const memory = memorySampler(options)
  const before = await cpuSnapshot(options, ctx.db)
  const started = performance.now()
  await cannon(options, next, { connections: options.connections, duration: options.duration }, latencies)
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuPerRequest(before, await cpuSnapshot(options, ctx.db), latencies.count)
  return { ...result(scenario, latencies, seconds, await memory.stop()), cpu }
}

/** GET /health at a steady 100 per second on 2 connections, while a login storm runs on the others. */
export async function runHealthDuringLogins (ctx: Context): Promise<Result[]> {
  const { options } = ctx
  const health = new Latencies()
  const logins = new Latencies()
  const memory = memorySampler(options)
  const started = performance.now()
  await Promise.all([
    cannon(options, () => loginTarget(ctx), { connections: options.connections, duration: options.duration }, logins),
    cannon(options, () => ({ method: 'GET', path: '/health' }), { connections: 2, duration: options.duration, overallRate: 100 }, health),
  ])
  const seconds = (performance.now() - started) / 1000
  const peak = await memory.stop()
  return [result('health during logins', health, seconds, peak), result('  (the login storm)', logins, seconds, peak)]
}
