/**
 * npm run simulate-alerts: replays one simulated day through the real alert code (AlertService and
 * alerts.repo.ts) on the embedded engine, with a simulated clock, once with the fair policy of
 * docs/alerts.md and once with a nearest-only policy (the peers'), and prints their figures side by side
 * (docs/alerts.md). Options: --volunteers N --requests N --seed N.
 *
 * The model, kept simple and stated so it can be argued with:
 * - Volunteers live in a city of about 20 × 20 km: most near one of a few centres, the rest spread out;
 *   70 % are on duty (the day is one shift), with radii of 2, 3, 5 or 10 km, a daily cap of 10 (some 3
 *   or 5), and 30 % take only two or three kinds of request.
 * - Requests are approved through the day (more by day than at night), where people live, of every
 *   kind and urgency (10 % urgent, 20 % high, 40 % medium, 30 % low).
 * - An alerted volunteer offers help with a chance that falls with distance (half at 3 km) and with how
 *   many alerts they had in the last 24 hours (alert fatigue: each one makes the next 12 % less likely
 *   to be answered), after a delay of a few minutes. The requester accepts the first offer 10 minutes
 *   after it comes; the request is then assigned and its rounds stop.
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config.js'
import type { Database } from '../src/db/database.js'
import { migrate } from '../src/db/migrate.js'
import { openPglite } from '../src/db/pglite.js'
import { dateIn } from '../src/lib/checks.js'
import { gridPoint } from '../src/lib/grid.js'
import { closeAlerts, scheduleFirstRound, type AlertPolicy } from '../src/help/alerts/alerts.repo.js'
import { AlertService } from '../src/help/alerts/alerts.service.js'
import { changesOn } from '../src/areas.js'
import { insertRequest, moderateRequest, setAssignment } from '../src/help/requests/requests.repo.js'
import { insertResponse } from '../src/help/responses/responses.repo.js'
import { VOLUNTEER_ROLE_ID } from '../src/accounts/roles/roles.repo.js'
import { randomStream } from './lib/random.js'

const { values: args } = parseArgs({
  options: {
    volunteers: { type: 'string', default: '3000' },
    requests: { type: 'string', default: '1500' },
    seed: { type: 'string', default: '11' },
  },
})

const CENTRE = { lat: 52.52, lon: 13.405 }
const M_PER_DEG_LAT = 111_320
const M_PER_DEG_LON = M_PER_DEG_LAT * Math.cos(CENTRE.lat * Math.PI / 180)
const START = Date.parse('2026-03-02T00:00:00Z')
const DAY_S = 24 * 3600
const URGENCIES = [['urgent', 0.1], ['high', 0.2], ['medium', 0.4], ['low', 0.3]] as const

interface Volunteer { id: number, lat: number, lon: number }
interface SimRequest { id: number, at: number, lat: number, lon: number, urgency: typeof URGENCIES[number][0], type: number }
interface World { volunteers: Volunteer[], onDuty: Volunteer[], requests: SimRequest[], requesterIds: number[], moderatorId: number }

function gaussian (random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** A point where people live: near one of five centres, or anywhere in the city. */
function homePoint (random: () => number, centres: Array<{ x: number, y: number }>): { lat: number, lon: number } {
  let x: number
  let y: number
  if (random() < 0.75) {
    const c = centres[Math.floor(random() * centres.length)]!
    x = c.x + gaussian(random) * 1500
    y = c.y + gaussian(random) * 1500
  } else {
    x = (random() - 0.5) * 20_000
    y = (random() - 0.5) * 20_000
  }
  return { lat: CENTRE.lat + y / M_PER_DEG_LAT, lon: CENTRE.lon + x / M_PER_DEG_LON }
}

function pick<T> (random: () => number, weighted: ReadonlyArray<readonly [T, number]>): T {
  let r = random()
  for (const [value, weight] of weighted) {
    if ((r -= weight) < 0) return value
  }
  return weighted[weighted.length - 1]![0]
}

async function populate (db: Database, seed: number, volunteers: number, requests: number): Promise<World> {
  const random = randomStream(seed, 'simulated world')
  const centres = Array.from({ length: 5 }, () => ({ x: (random() - 0.5) * 14_000, y: (random() - 0.5) * 14_000 }))
  const users = volunteers + 200
  // direct write: set-based, thousands of accounts in one statement; users.repo inserts one per call
  const ids = (await db.query<{ id: number }>(/* sql */ `
    INSERT INTO users (email, password_hash, first_name, last_name)
    SELECT 'sim' || i || '@example.org', 'x', 'Sim', 'User ' || i FROM generate_series(1, $1::int) i
    RETURNING id`, [users])).map((row) => Number(row.id)).sort((a, b) => a - b)
  // direct write: set-based, every account's role in one statement; roles.repo grants one per call
  await db.query('INSERT INTO user_roles (user_id, role_id) SELECT unnest($1::bigint[]), $2', [ids, VOLUNTEER_ROLE_ID])
  // Any volunteer approves the requests (moderateRequest needs someone who is not the requester).
  const world: World = { volunteers: [], onDuty: [], requests: [], requesterIds: ids.slice(volunteers), moderatorId: ids[0]! }
  const rows: Array<[number, boolean, number, number, number, string, number]> = []
  for (const id of ids.slice(0, volunteers)) {
    const { lat, lon } = homePoint(random, centres)
    const volunteer = { id, lat, lon }
    world.volunteers.push(volunteer)
    const onDuty = random() < 0.7
    if (onDuty) world.onDuty.push(volunteer)
    const radius = pick(random, [[2000, 0.25], [3000, 0.25], [5000, 0.35], [10_000, 0.15]])
    const cap = pick(random, [[10, 0.8], [5, 0.12], [3, 0.08]])
    const kinds = random() < 0.3 ? [1, 2, 3, 4, 5, 6].filter(() => random() < 0.45) : []
    rows.push([id, onDuty, radius, lat, lon, `{${kinds.join(',')}}`, cap])
  }
  // direct write: set-based, every volunteer's availability in one statement; availability.repo saves one per call
  await db.query(/* sql */ `
    INSERT INTO volunteer_availability (user_id, on_duty, radius_meters, latitude, longitude, request_type_ids, max_alerts_per_day, alert_point)
    SELECT u, d, r, la, lo, k::bigint[], c, ll_to_earth(la, lo)
    FROM unnest($1::bigint[], $2::boolean[], $3::int[], $4::float8[], $5::float8[], $6::text[], $7::int[]) AS t (u, d, r, la, lo, k, c)`,
  [0, 1, 2, 3, 4, 5, 6].map((i) => rows.map((row) => row[i])))
  // Approval times: more by day (8 to 20 h) than at night.
  for (let i = 0; i < requests; i++) {
    let at: number
    do at = random() * DAY_S; while (random() > (at > 8 * 3600 && at < 20 * 3600 ? 1 : 0.3))
    const { lat, lon } = homePoint(random, centres)
    world.requests.push({ id: 0, at, lat, lon, urgency: pick(random, URGENCIES), type: 1 + Math.floor(random() * 6) })
  }
  world.requests.sort((a, b) => a.at - b.at)
  // Created now rather than at their simulated time: nothing in the alert code reads created_at.
  const gridMeters = loadConfig({}).mapGridMeters
  for (const [i, request] of world.requests.entries()) {
    const input = { request_type_id: request.type, title: 'Simulated request', description: 'Simulated', latitude: request.lat, longitude: request.lon, address: 'Somewhere', urgency: request.urgency }
    const row = await insertRequest(db, world.requesterIds[i % world.requesterIds.length]!, input, gridPoint(request.lat, request.lon, gridMeters), gridMeters)
    request.id = Number(row!.id)
  }
  return world
}

function distance (a: { lat: number, lon: number }, b: { lat: number, lon: number }): number {
  return Math.hypot((a.lat - b.lat) * M_PER_DEG_LAT, (a.lon - b.lon) * M_PER_DEG_LON)
}

interface Outcome {
  alertsPerVolunteer: number[]
  alertsPerRequest: number[]
  firstOffer: Array<number | undefined>
}

/** One simulated day under `order`, from a fresh copy of the same world (same seed). */
async function simulate (order: AlertPolicy, seed: number, volunteers: number, requests: number): Promise<Outcome> {
  const db = await openPglite(undefined)
  try {
    await migrate(db)
    const world = await populate(db, seed, volunteers, requests)
    const byId = new Map(world.volunteers.map((v) => [v.id, v]))
    const settings = loadConfig({}).alerts
    let now = START
    const alerts = new AlertService(changesOn(db), settings, { now: () => new Date(now) }, order)
    // The volunteers' behaviour has its own stream, the same for both policies.
    const random = randomStream(seed, 'volunteers behaviour')
    const received = new Map<number, number[]>()
    const firstOffer = new Map<number, number>()
    const alertsPerRequest = new Map<number, number>()
    const status = new Map<number, 'approved' | 'in_progress'>()
    /** Pending events, by time: offers and accepts. */
    const events: Array<{ at: number, run: () => Promise<void> }> = []
    const push = (at: number, run: () => Promise<void>) => { events.push({ at, run }); events.sort((a, b) => a.at - b.at) }

    for (const request of world.requests) {
      push(START + request.at * 1000, async () => {
        await db.transaction(async (tx) => {
          await moderateRequest(tx, request.id, world.moderatorId, 'approved', null)
          await scheduleFirstRound(tx, request.id, new Date(now))
        })
        status.set(request.id, 'approved')
      })
    }
    const offer = (request: SimRequest, volunteerId: number) => async () => {
      if (status.get(request.id) !== 'approved') return
      // Responded now rather than at the simulated time: the alert code counts pending offers, not their times.
      await insertResponse(db, request.id, volunteerId, null, dateIn(new Date(now), 'UTC'))
      if (firstOffer.has(request.id)) return
      firstOffer.set(request.id, now - START - request.at * 1000)
      push(now + 10 * 60_000, async () => {
        await db.transaction(async (tx) => {
          await setAssignment(tx, request.id, volunteerId)
          await closeAlerts(tx, request.id, new Date(now))
        })
        status.set(request.id, 'in_progress')
      })
    }
    const requestById = new Map(world.requests.map((r) => [r.id, r]))
    const end = START + (DAY_S + 6 * 3600) * 1000
    for (;;) {
      const due = await db.query<{ at: Date | null }>('SELECT min(due_at) AS at FROM alert_rounds')
      const nextRound = due[0]?.at ? due[0].at.getTime() : Infinity
      const nextEvent = events[0]?.at ?? Infinity
      const next = Math.min(nextRound, nextEvent)
      if (next > end) break
      now = Math.max(now, next)
      while (events.length > 0 && events[0]!.at <= now) await events.shift()!.run()
      for (;;) {
        const outcome = await alerts.runOne()
        if (outcome === undefined) break
        const request = requestById.get(outcome.requestId)!
        alertsPerRequest.set(request.id, (alertsPerRequest.get(request.id) ?? 0) + outcome.alerted.length)
        for (const { volunteer_id: id } of outcome.alerted) {
          const history = (received.get(Number(id)) ?? []).filter((at) => at > now - DAY_S * 1000)
          const chance = 0.45 * Math.pow(0.5, distance(byId.get(Number(id))!, request) / 3000) * Math.pow(0.88, history.length)
          history.push(now)
          received.set(Number(id), history)
          if (random() < chance) push(now + (1 + random() * 9) * 60_000, offer(request, Number(id)))
        }
      }
    }
    const counts = new Map<number, number>()
    for (const row of await db.query<{ volunteer_id: number, n: number }>('SELECT volunteer_id, count(*)::int AS n FROM request_alerts GROUP BY 1')) {
      counts.set(Number(row.volunteer_id), row.n)
    }
    return {
      alertsPerVolunteer: world.onDuty.map((v) => counts.get(v.id) ?? 0),
      alertsPerRequest: world.requests.map((r) => alertsPerRequest.get(r.id) ?? 0),
      firstOffer: world.requests.map((r) => firstOffer.get(r.id)),
    }
  } finally {
    await db.close()
  }
}

const quantile = (sorted: readonly number[], q: number) => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length

/** Gini coefficient: 0 when everyone gets the same number of alerts, near 1 when a few get them all. */
function gini (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const total = sorted.reduce((a, b) => a + b, 0)
  if (total === 0) return 0
  const weighted = sorted.reduce((sum, value, i) => sum + (i + 1) * value, 0)
  return (2 * weighted) / (sorted.length * total) - (sorted.length + 1) / sorted.length
}

function figures (outcome: Outcome): Array<[string, string]> {
  const perVolunteer = [...outcome.alertsPerVolunteer].sort((a, b) => a - b)
  const offers = outcome.firstOffer.filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b)
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`
  return [
    ['alerts per on-duty volunteer: mean', mean(perVolunteer).toFixed(2)],
    ['alerts per on-duty volunteer: p95', String(quantile(perVolunteer, 0.95))],
    ['alerts per on-duty volunteer: max', String(perVolunteer[perVolunteer.length - 1])],
    ['alerts per on-duty volunteer: Gini', gini(perVolunteer).toFixed(3)],
    ['on-duty volunteers never alerted', `${(100 * perVolunteer.filter((n) => n === 0).length / perVolunteer.length).toFixed(1)} %`],
    ['requests with an offer', `${(100 * offers.length / outcome.firstOffer.length).toFixed(1)} %`],
    ['time to first offer: median', minutes(quantile(offers, 0.5))],
    ['time to first offer: p90', minutes(quantile(offers, 0.9))],
    ['alerts sent per request (mean)', mean(outcome.alertsPerRequest).toFixed(2)],
  ]
}

const seed = Number(args.seed)
const volunteerCount = Number(args.volunteers)
const requestCount = Number(args.requests)
const started = Date.now()
const fair = figures(await simulate('fair', seed, volunteerCount, requestCount))
const nearest = figures(await simulate('nearest', seed, volunteerCount, requestCount))
const nearestCapped = figures(await simulate('nearest-capped', seed, volunteerCount, requestCount))
process.stdout.write(`Simulated day: ${volunteerCount} volunteers, ${requestCount} approved requests, seed ${seed} (${((Date.now() - started) / 1000).toFixed(0)} s)\n\n`)
process.stdout.write('| figure | fair (docs/api/messaging.md) | nearest only (the peers\': no cap) | nearest only, with the daily cap |\n|---|---|---|---|\n')
for (const [i, [name, value]] of fair.entries()) process.stdout.write(`| ${name} | ${value} | ${nearest[i]![1]} | ${nearestCapped[i]![1]} |\n`)
