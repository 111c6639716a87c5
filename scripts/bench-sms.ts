/**
 * npm run bench:sms: texts submitted per second by one process through the SMPP gateway to the local SMPP server
 * (goal at least 100/s; figures in docs/performance.md › Texts). `BENCH_TEXTS` texts (default 3000: a third of
 * them two segments, a third UCS-2) go out with `BENCH_WINDOW` submissions in flight (default 20), each a
 * submit_sm waiting for its submit_sm_resp. The server is the `smpp` package's, in this process, acknowledging each
 * submit_sm as an operator's gateway would (the tests' fuller one is test/helpers/smpp-server.ts). Prints one JSON object; `--out FILE` writes it there too.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { SmppGateway } from '../src/messaging/sms/smpp-gateway.js'
import { startSmppSink } from './bench/smpp-sink.js'

const TEXTS = Number(process.env.BENCH_TEXTS ?? 3000)
const WINDOW = Number(process.env.BENCH_WINDOW ?? 20)
const SAMPLES = [
  'Jonas will help you on Tuesday, 14:00. Reply NO 4821 if it is no longer needed.',
  `Neue Anfrage in Ihrer Nähe: Einkauf für eine ältere Dame, morgen Vormittag. ${'Bitte bringen Sie eine Tasche mit. '.repeat(3)}Antworten Sie JA 4821.`,
  'Ваша заявка принята: волонтёр придёт во вторник 🙂',
]

const quiet = { info: () => {}, warn: () => {} }
const counts = { submitSm: 0 }
const { port, close } = await startSmppSink(() => { counts.submitSm += 1 })
const gateway = new SmppGateway({ url: `smpp://bench:bench@127.0.0.1:${port}`, from: '+4930123456', log: quiet })
while (!gateway.isBound) await new Promise((resolve) => setTimeout(resolve, 10))

const latencies: number[] = []
const outcomes: Record<string, number> = {}
let next = 0
const started = performance.now()
const cpuStart = process.cpuUsage()
await Promise.all(Array.from({ length: WINDOW }, async () => {
  while (next < TEXTS) {
    const index = next++
    const begun = performance.now()
    const outcome = await gateway.submit({ to: `+49151${String(10_000_000 + index)}`, text: SAMPLES[index % SAMPLES.length]! })
    latencies.push(performance.now() - begun)
    outcomes[outcome.outcome] = (outcomes[outcome.outcome] ?? 0) + 1
  }
}))
const seconds = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuStart)
await gateway.close()
close()

const sorted = [...latencies].sort((a, b) => a - b)
const at = (share: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]! * 100) / 100
const result = {
  date: new Date().toISOString(),
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
  node: process.version,
  texts: TEXTS,
  window: WINDOW,
  submit_sm: counts.submitSm,
  outcomes,
  texts_per_second: Math.round(TEXTS / seconds),
  submit_ms: { p50: at(0.5), p99: at(0.99), max: at(1) },
  // Both ends run in this process: the figure includes the server's decoding of every part.
  cpu_ms_per_text: Math.round((cpu.user + cpu.system) / 1000 / TEXTS * 1000) / 1000,
}
const json = JSON.stringify(result, null, 2)
process.stdout.write(`${json}\n`)
const out = process.argv.indexOf('--out')
if (out !== -1 && process.argv[out + 1] !== undefined) writeFileSync(process.argv[out + 1]!, `${json}\n`)
