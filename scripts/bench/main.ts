// Load test of a running service with autocannon, side by side with the same queries straight against
// PostgreSQL at the same concurrency, so that the service's overhead is a ratio measured in one run.
//
//   npm run bench -- --base http://127.0.0.1:3000/api/v1 [--database-url postgres://...] [--pid PID]
//     [--duration 10] [--warmup 2] [--connections 32] [--scenarios nearby,bounds,detail,me,create,login,mix,health-login]
//     [--runs 1] [--label text] [--json results.json] [--deliveries 1000 --approval-rate 0 --smtp-port 2525 --push-port 2526 --push-tls-dir DIR --email-only]
//
// With --runs N each scenario (and its raw-SQL twin, run right after it) is measured N times and the
// median of each figure is reported, the spread of the throughput beside it; every run is kept in the JSON.
//
// The service should run with rate limits raised (RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_PER_ACCOUNT), or the
// login scenarios measure 429s. Data comes from `npm run seed`: the bench logs in as demo accounts.
// See docs/performance.md for the procedure and the figures.
import { openPostgres } from '../../src/db/postgres.js'
import { localhostCertificate } from '../lib/push-receiver.js'
import { randomStream } from '../lib/random.js'
import { DEMO_PASSWORD, demoEmail } from '../seed.js'
import { runDeliveries } from './deliveries.js'
import { runHealthDuringLogins, runHttp } from './http-runs.js'
import { parseOptions, type Scenario } from './options.js'
import { runRawTwins } from './raw-sql.js'
import { appendJson, progressLine, summary } from './report.js'
import { medianResult, type Result } from './results.js'
import { benchAccount, cancelOwnRequests, login, sampleRequestIds, type Context } from './scenarios.js'
import { startPushSink, type PushSink } from './push-sink.js'
import { startSmtpSink, type SmtpSink } from './smtp-sink.js'

async function main (): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  if (options.pushCertificate) {
    await localhostCertificate(options.pushTlsDir)
    process.stdout.write(`${options.pushTlsDir}/cert.pem\n`)
    return
  }
  const health = await fetch(`${options.base}/health`).catch(() => undefined)
  if (health?.status !== 200) throw new Error(`no service answers at ${options.base}/health`)
  // When this run began by the service's clock (its Date header counts whole seconds, hence the second less).
  const started = Date.parse(health.headers.get('date') ?? '') - 1000 || Date.now() - 60_000
  const db = options.databaseUrl === undefined ? undefined : await openPostgres(options.databaseUrl, { max: options.connections })
  const token = await login(options.base, demoEmail(2), DEMO_PASSWORD)
  const creator = await benchAccount(options.base)
  const ctx: Context = { options, random: randomStream(options.seed, 'bench'), token, creator, requestIds: [], db }
  ctx.requestIds = await sampleRequestIds(ctx)
  const firstNew = db === undefined ? undefined : (await db.query<{ last: number | null }>('SELECT max(id) AS last FROM requests'))[0]?.last ?? 0

  process.stderr.write(`Benchmark of ${options.base}: ${options.connections} connections, ${options.duration} s per scenario (after ${options.warmup} s warm-up)\n`)
  const results: Result[] = []
  // The deliveries scenario's mail server, up before the service's sending loop might want it.
  const sink: SmtpSink | undefined = options.scenarios.includes('deliveries') ? await startSmtpSink(options.smtpPort) : undefined
  const push: PushSink | undefined = sink !== undefined && !options.emailOnly ? await startPushSink(options.base, options.pushPort, options.pushTlsDir) : undefined
  try {
    /** One run of a scenario: its result, and the same queries straight against PostgreSQL right after. */
    const measure = async (scenario: Scenario): Promise<Result[]> => {
      // Fresh tokens for each run: a long run outlives an access token.
      ctx.token = await login(options.base, demoEmail(2), DEMO_PASSWORD)
      ctx.creator = await benchAccount(options.base)
      if (scenario === 'health-login') return await runHealthDuringLogins(ctx)
      if (scenario === 'deliveries') return await runDeliveries(ctx, sink!, push)
      const measured = [await runHttp(scenario, ctx)]
      measured.push(...await runRawTwins(scenario, ctx))
      return measured
    }
    for (const scenario of options.scenarios) {
      const runs = new Map<string, Result[]>()
      for (let run = 0; run < options.runs; run++) {
        for (const r of await measure(scenario)) {
          process.stderr.write(progressLine(r))
          runs.set(r.scenario, [...runs.get(r.scenario) ?? [], r])
        }
      }
      for (const measured of runs.values()) results.push(medianResult(measured))
    }
  } finally {
    await sink?.close()
    await push?.close()
    // The bench's own requests go again, so that a repeated run searches the same active requests.
    if (db !== undefined) {
      // direct write: the service never deletes a request's history, but the bench's own requests go, and it with them
      await db.query('DELETE FROM request_history WHERE request_id IN (SELECT id FROM requests WHERE requester_id = $1 AND id > $2)', [creator.id, firstNew])
      // direct write: the service never deletes a request (it cancels), and a rerun needs the bench's own ones gone
      await db.query('DELETE FROM requests WHERE requester_id = $1 AND id > $2', [creator.id, firstNew])
      await db.close()
    } else {
      await cancelOwnRequests(options.base, ctx.creator.token, started)
    }
  }

  process.stdout.write(summary(results, options.label))
  if (options.json !== undefined) await appendJson(options.json, options, results)
}

await main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
