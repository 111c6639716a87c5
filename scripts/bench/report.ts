// The bench's output: a line per run on stderr as it goes, a Markdown table at the end, and the JSON record.
import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import type { Options } from './options.js'
import type { Result } from './results.js'

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1))

export function progressLine (r: Result): string {
  const odd = Object.entries(r.statuses ?? {}).filter(([status]) => !/^2\d\d$/.test(status))
  return `${r.scenario.padEnd(22)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${ms(r.p50).padStart(6)} ms${r.p95 !== undefined ? `  p95 ${ms(r.p95).padStart(6)} ms` : ''}  p99 ${ms(r.p99).padStart(6)} ms` +
    `  errors ${r.errors}${odd.length > 0 ? ` ${JSON.stringify(Object.fromEntries(odd))}` : ''}` +
    `${r.peakRssMiB !== undefined ? `  peak RSS ${r.peakRssMiB.toFixed(0)} MiB` : ''}\n`
}

function table (results: readonly Result[]): string {
  const lines = ['| scenario | req/s | p50 ms | p99 ms | errors | peak RSS MiB | CPU ms/request: service | PostgreSQL | load generator |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|']
  const cpu = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2))
  for (const r of results) {
    const spread = r.spread === undefined ? '' : ` (${r.spread.min.toFixed(0)}–${r.spread.max.toFixed(0)})`
    lines.push(`| ${r.scenario} | ${r.requestsPerSecond.toFixed(0)}${spread} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} | ${r.peakRssMiB === undefined ? '-' : r.peakRssMiB.toFixed(0)} | ` +
      `${cpu(r.cpu?.service)} | ${cpu(r.cpu?.postgres)} | ${cpu(r.cpu?.client)} |`)
  }
  return lines.join('\n')
}

/** The table, with the service's throughput as a share of its raw-SQL twin's. */
export function summary (results: readonly Result[], label: string): string {
  const ratio = (service: string, raw: string) => {
    const a = results.find((r) => r.scenario === service)
    const b = results.find((r) => r.scenario === raw)
    return a !== undefined && b !== undefined ? `${service}: service ${(100 * a.requestsPerSecond / b.requestsPerSecond).toFixed(0)}% of raw SQL throughput` : undefined
  }
  const ratios = [ratio('nearby', 'nearby, raw SQL'), ratio('detail', 'detail, raw SQL')].filter((line) => line !== undefined)
  return `\n${label !== '' ? `${label}\n\n` : ''}${table(results)}\n${ratios.length > 0 ? `\n${ratios.join('\n')}\n` : ''}`
}

function machine (): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU'
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
}

function commit (): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
}

/** Appends this run's record to the JSON file, so one file keeps a series of runs to compare. */
export async function appendJson (file: string, options: Options, results: readonly Result[]): Promise<void> {
  const record = { label: options.label, date: new Date().toISOString(), commit: commit(), machine: machine(), connections: options.connections, duration: options.duration, results }
  const previous = await readFile(file, 'utf8').then((text) => JSON.parse(text) as unknown[]).catch(() => [])
  await writeFile(file, `${JSON.stringify([...previous, record], null, 2)}\n`)
}
