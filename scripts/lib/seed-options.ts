import { parseArgs } from 'node:util'
import { OWASP_SCRYPT } from '../../src/config.js'
import type { ScryptParams } from '../../src/lib/passwords.js'

// What `npm run seed` is asked for (scripts/seed.ts): its options, their defaults, the command line and a progress bar.

export interface SeedOptions {
  /** Active requests: pending_moderation, approved or in_progress. */
  requests: number
  users: number
  /** Finished requests: completed (with a rating), cancelled or rejected. */
  history: number
  seed: number
  center: { lat: number, lon: number }
  city: string
  /** The moment the data is made relative to; fixed in tests so two runs can be compared. */
  now: Date
  scrypt: ScryptParams
}

export const DEFAULTS: Omit<SeedOptions, 'now'> = {
  requests: 1000,
  users: 100,
  history: 0,
  seed: 1,
  center: { lat: 52.52, lon: 13.405 },
  city: 'Berlin',
  scrypt: OWASP_SCRYPT,
}

export type Progress = (phase: string, done: number, total: number) => void

/** A progress line on stderr, redrawn in place on a terminal; elsewhere (a log file) a line per tenth. */
export function progressBar (stream: NodeJS.WriteStream = process.stderr): Progress {
  let lastDraw = 0
  let lastTenth = -1
  const started = Date.now()
  return (phase, done, total) => {
    const finished = done >= total
    if (!stream.isTTY) {
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10)
      if (tenth !== lastTenth) stream.write(`${phase}: ${done}/${total} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
      lastTenth = finished ? -1 : tenth
      return
    }
    if (!finished && Date.now() - lastDraw < 100) return
    lastDraw = Date.now()
    const width = 30
    const filled = total === 0 ? width : Math.round((done / total) * width)
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100)
    const line = `${phase.padEnd(16)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${done}/${total}`
    stream.write(`\r${line}\x1b[K${finished ? '\n' : ''}`)
  }
}

export function parseCli (argv: string[]): Omit<SeedOptions, 'now'> {
  const { values } = parseArgs({
    args: argv,
    options: {
      requests: { type: 'string' },
      users: { type: 'string' },
      history: { type: 'string' },
      seed: { type: 'string' },
      center: { type: 'string' },
      city: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help === true) {
    process.stdout.write('npm run seed -- --requests N --users U [--history H] [--seed S] [--center lat,lon] [--city name]\n')
    process.exit(0)
  }
  const number = (raw: string | undefined, fallback: number) => (raw === undefined ? fallback : Number(raw.replaceAll('_', '')))
  const [lat, lon] = values.center === undefined ? [DEFAULTS.center.lat, DEFAULTS.center.lon] : values.center.split(',').map(Number)
  return {
    ...DEFAULTS,
    requests: number(values.requests, DEFAULTS.requests),
    users: number(values.users, DEFAULTS.users),
    history: number(values.history, DEFAULTS.history),
    seed: number(values.seed, DEFAULTS.seed),
    center: { lat: lat ?? NaN, lon: lon ?? NaN },
    city: values.city ?? DEFAULTS.city,
  }
}
