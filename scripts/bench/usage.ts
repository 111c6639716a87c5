// Memory and CPU of the processes under load, read from /proc (Linux), so CPU per request can be split
// between the service, PostgreSQL and the load generator.
import { readFile } from 'node:fs/promises'
import type { Database } from '../../src/db/database.js'
import type { Options } from './options.js'
import type { Result } from './results.js'

/** Resident memory of a process and its descendants (cluster workers), from /proc, in bytes. */
async function rssOfTree (pid: number): Promise<number> {
  let total = 0
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
  if (kb !== undefined) total += Number(kb) * 1024
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')
  for (const child of children.split(/\s+/).filter(Boolean)) total += await rssOfTree(Number(child))
  return total
}

/** Samples the service's memory while a run lasts: from /proc with --pid, else from its /metrics. */
export function memorySampler (options: Options): { stop(): Promise<number | undefined> } {
  let peak: number | undefined
  const state = { running: true }
  const metrics = `${new URL(options.base).origin}/metrics`
  const sample = async (): Promise<number | undefined> => {
    if (options.pid !== undefined) return await rssOfTree(options.pid)
    const text = await fetch(metrics).then((res) => res.text()).catch(() => '')
    const bytes = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1]
    return bytes === undefined ? undefined : Number(bytes)
  }
  const loop = (async () => {
    while (state.running) {
      const bytes = await sample()
      if (bytes !== undefined) peak = Math.max(peak ?? 0, bytes)
      await new Promise((resolve) => setTimeout(resolve, options.pid !== undefined ? 200 : 1000))
    }
  })()
  return {
    async stop () {
      state.running = false
      await loop
      return peak === undefined ? undefined : peak / 2 ** 20
    },
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; 0 when it is gone or not ours to read. */
async function cpuSeconds (pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th (in clock ticks of 1/100 s).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100
}

async function descendants (pid: number): Promise<number[]> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(/\s+/).filter(Boolean).map(Number)
  return [pid, ...(await Promise.all(children.map(descendants))).flat()]
}

export interface CpuSnapshot { service: number | undefined, postgres: Map<number, number> | undefined, client: number }

/**
 * Where the machine's CPU goes: the service (with --pid), PostgreSQL's backends on the bench database (when the
 * server runs on this machine, so /proc shows them) and this process. Backends of other databases are not counted.
 */
export async function cpuSnapshot (options: Options, db: Database | undefined): Promise<CpuSnapshot> {
  const usage = process.cpuUsage()
  const service = options.pid === undefined
    ? undefined
    : (await Promise.all((await descendants(options.pid)).map(cpuSeconds))).reduce((a, b) => a + b, 0)
  let postgres: Map<number, number> | undefined
  if (db !== undefined) {
    const pids = (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).map((row) => row.pid)
    const seconds = await Promise.all(pids.map(cpuSeconds))
    postgres = seconds.some((value) => value > 0) ? new Map(pids.map((pid, i) => [pid, seconds[i] ?? 0])) : undefined
  }
  return { service, postgres, client: (usage.user + usage.system) / 1e6 }
}

export function cpuPerRequest (before: CpuSnapshot, after: CpuSnapshot, requests: number): Result['cpu'] {
  const per = (seconds: number) => (1000 * seconds) / Math.max(1, requests)
  let postgres: number | undefined
  if (before.postgres !== undefined && after.postgres !== undefined) {
    let seconds = 0
    for (const [pid, end] of after.postgres) seconds += end - (before.postgres.get(pid) ?? 0)
    postgres = per(seconds)
  }
  return {
    service: before.service === undefined || after.service === undefined ? undefined : per(after.service - before.service),
    postgres,
    client: per(after.client - before.client),
  }
}
