// What a run measures, and how several runs of a scenario are summed up.

export interface Result {
  scenario: string
  requestsPerSecond: number
  p50: number
  p99: number
  /** Only where a scenario reports it (deliveries). */
  p95?: number | undefined
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number
  total: number
  /** Largest resident set of the service seen during the run, in MiB (undefined when not sampled). */
  peakRssMiB: number | undefined
  /** CPU time per answered request, in ms: the service's processes, PostgreSQL's backends on the database, this load generator. */
  cpu?: { service: number | undefined, postgres: number | undefined, client: number }
  statuses?: Record<string, number>
  /** With --runs above 1: the slowest and fastest run's throughput, and every run. */
  spread?: { min: number, max: number }
  runs?: Result[]
}

/** Every latency of a run, in float ms, with the answers' statuses. */
export class Latencies {
  #values = new Float64Array(1 << 16)
  #length = 0
  errors = 0
  readonly statuses: Record<string, number> = {}

  add (ms: number, status: number | 'error'): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2)
      grown.set(this.#values)
      this.#values = grown
    }
    this.#values[this.#length++] = ms
    this.statuses[status] = (this.statuses[status] ?? 0) + 1
    if (status === 'error' || status < 200 || status > 299) this.errors += 1
  }

  get count (): number { return this.#length }

  percentile (p: number): number {
    if (this.#length === 0) return NaN
    const sorted = this.#values.slice(0, this.#length).sort()
    return sorted[Math.min(this.#length - 1, Math.ceil((p / 100) * this.#length) - 1)] ?? NaN
  }
}

export function result (scenario: string, latencies: Latencies, seconds: number, peakRssMiB: number | undefined): Result {
  return {
    scenario,
    requestsPerSecond: latencies.count / seconds,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
    errors: latencies.errors,
    total: latencies.count,
    peakRssMiB,
    statuses: latencies.statuses,
  }
}

function median (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The runs of one scenario summed up: the median of each figure, the errors of all, the highest memory. */
export function medianResult (runs: readonly Result[]): Result {
  const first = runs[0]
  if (first === undefined) throw new Error('no runs')
  if (runs.length === 1) return first
  const of = (pick: (r: Result) => number | undefined) => {
    const values = runs.map(pick).filter((v): v is number => v !== undefined)
    return values.length === 0 ? undefined : median(values)
  }
  const rates = runs.map((r) => r.requestsPerSecond)
  const statuses: Record<string, number> = {}
  for (const r of runs) for (const [status, n] of Object.entries(r.statuses ?? {})) statuses[status] = (statuses[status] ?? 0) + n
  return {
    scenario: first.scenario,
    requestsPerSecond: median(rates),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    ...(first.p95 !== undefined ? { p95: of((r) => r.p95) } : {}),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    total: runs.reduce((sum, r) => sum + r.total, 0),
    peakRssMiB: of((r) => r.peakRssMiB) === undefined ? undefined : Math.max(...runs.map((r) => r.peakRssMiB ?? 0)),
    ...(first.cpu !== undefined
      ? { cpu: { service: of((r) => r.cpu?.service), postgres: of((r) => r.cpu?.postgres), client: of((r) => r.cpu?.client) ?? NaN } }
      : {}),
    statuses,
    spread: { min: Math.min(...rates), max: Math.max(...rates) },
    runs: [...runs],
  }
}
