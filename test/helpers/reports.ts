import type { TestApp } from './app.js'

/*
 * A data set for the reports (docs/api/on-behalf.md › Reports for funders) written with past times, and the summary's figures computed
 * from it here in plain code, apart from the service's SQL, so the two can be compared.
 */

export const TYPE_NAMES = ['Shopping', 'Transport and escort', 'Household help', 'Accompaniment to appointments', 'Technology help', 'Other']
export const URGENCY_NAMES = ['low', 'medium', 'high', 'urgent']

export interface Offer { volunteer: number, at: Date, acceptedAt: Date | null, status: 'pending' | 'accepted' | 'rejected' | 'cancelled' }

export interface RequestSpec {
  id?: number
  requester: number
  clientId: number | null
  carer: number | null
  type: number
  urgency: string
  city: string | null
  lat: number
  lon: number
  createdAt: Date
  status: 'pending_moderation' | 'approved' | 'in_progress' | 'completed' | 'cancelled' | 'rejected'
  cancelReason: 'requester' | 'expired' | null
  finishedAt: Date | null
  offers: Offer[]
  rating: number | null
}

/** A small deterministic generator (mulberry32), so the data set is the same on every run. */
export function random (seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6D2B79F5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const MINUTE = 60_000

/**
 * `count` requests created between `from` and `to` by `requesters`, some for clients (ids 9001, 9002) or
 * by a carer, in every state, offered by `volunteers` (at multiples of 12 s, so medians are exact to 0.1
 * minute), completed after whole minutes (some past the 12 h cap).
 */
export function generate (count: number, from: Date, to: Date, requesters: number[], volunteers: number[], seed = 22): RequestSpec[] {
  const next = random(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  const specs: RequestSpec[] = []
  for (let k = 0; k < count; k += 1) {
    const createdAt = new Date(from.getTime() + Math.floor(next() * (to.getTime() - from.getTime()) / MINUTE) * MINUTE)
    const roll = next()
    const status = roll < 0.45
      ? 'completed'
      : roll < 0.6
        ? 'cancelled'
        : roll < 0.7
          ? 'expired'
          : roll < 0.8
            ? 'approved'
            : roll < 0.9 ? 'in_progress' : roll < 0.95 ? 'pending_moderation' : 'rejected'
    const offered = status !== 'pending_moderation' && status !== 'rejected' && status !== 'expired'
    const offerCount = status === 'completed' || status === 'in_progress' ? 1 + Math.floor(next() * 3) : offered ? Math.floor(next() * 3) : 0
    const chosen = [...volunteers].sort(() => next() - 0.5).slice(0, offerCount)
    let at = createdAt.getTime()
    const offers: Offer[] = chosen.map((volunteer) => {
      at += (1 + Math.floor(next() * 400)) * 12_000
      return { volunteer, at: new Date(at), acceptedAt: null, status: status === 'cancelled' ? 'cancelled' : 'pending' }
    })
    let finishedAt: Date | null = null
    if (status === 'completed' || status === 'in_progress') {
      const accepted = offers[Math.floor(next() * offers.length)]!
      accepted.status = 'accepted'
      accepted.acceptedAt = new Date(at + (1 + Math.floor(next() * 200)) * 12_000)
      for (const offer of offers) if (offer !== accepted) offer.status = 'rejected'
      if (status === 'completed') finishedAt = new Date(accepted.acceptedAt.getTime() + (10 + Math.floor(next() * 900)) * MINUTE)
    }
    if (status === 'cancelled' || status === 'expired') finishedAt = new Date(createdAt.getTime() + (30 + Math.floor(next() * 3000)) * MINUTE)
    if (status === 'rejected') finishedAt = new Date(createdAt.getTime() + 60 * MINUTE)
    const client = next()
    specs.push({
      requester: pick(requesters),
      clientId: client < 0.15 ? 9001 : client < 0.25 ? 9002 : null,
      carer: client > 0.9 ? requesters[0]! : null,
      // Shopping more often than the rest, and urgent seldom, so some groups are large, some small, some empty.
      type: next() < 0.4 ? 1 : 2 + Math.floor(next() * 5),
      urgency: next() < 0.05 ? 'urgent' : pick(['low', 'medium', 'high']),
      city: pick(['Berlin', 'Potsdam', null]),
      lat: 52.3 + next() * 0.4,
      lon: 13.1 + next() * 0.5,
      createdAt,
      status: status === 'expired' ? 'cancelled' : status,
      cancelReason: status === 'expired' ? 'expired' : status === 'cancelled' ? 'requester' : null,
      finishedAt,
      offers,
      rating: status === 'completed' && next() < 0.7 ? 1 + Math.floor(next() * 5) : null,
    })
  }
  return specs
}

/** Writes the specs (their ids are filled in). */
export async function insertSpecs (t: TestApp, specs: RequestSpec[]): Promise<void> {
  for (const spec of specs) {
    const accepted = spec.offers.find((offer) => offer.status === 'accepted')
    // The first offer's and first acceptance's times and the assignment's, as the service keeps them (requests.repo.ts markOffered, setAssignment).
    const earliest = (times: Array<Date | null>): Date | null => times.reduce<Date | null>((min, at) => at !== null && (min === null || at < min) ? at : min, null)
    // direct write: requests with past creation and end times, which no operation of the API can give.
    const [row] = await t.db.query<{ id: number }>(/* sql */ `
      INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, city, urgency, status,
        cancel_reason, created_at, updated_at, finished_at, assigned_volunteer_id, client_id, created_by_carer, grid_latitude, grid_longitude, grid_meters,
        first_offer_at, first_accepted_at, assigned_at)
      VALUES ($1, $2, 'Report test', 'Inserted by the reports test', $3, $4, 'Test street 1', $5, $6, $7, $8, $9, $9, $10, $11, $12, $13, $3, $4, 300, $14, $15, $16)
      RETURNING id`,
    [spec.requester, spec.type, spec.lat, spec.lon, spec.city, spec.urgency, spec.status, spec.cancelReason, spec.createdAt,
      spec.finishedAt, accepted?.volunteer ?? null, spec.clientId, spec.carer, earliest(spec.offers.map((o) => o.at)), earliest(spec.offers.map((o) => o.acceptedAt)),
      accepted?.acceptedAt ?? null])
    spec.id = row!.id
    for (const offer of spec.offers) {
      // direct write: offers at past times.
      await t.db.query(/* sql */ `INSERT INTO volunteer_responses (request_id, volunteer_id, status, responded_at, accepted_at)
        VALUES ($1, $2, $3, $4, $5)`, [spec.id, offer.volunteer, offer.status, offer.at, offer.acceptedAt])
    }
    if (spec.rating !== null) {
      // direct write: the rating of a request completed in the past.
      await t.db.query(/* sql */ 'INSERT INTO ratings (request_id, volunteer_id, rater_id, score, created_at) VALUES ($1, $2, $3, $4, $5)',
        [spec.id, accepted!.volunteer, spec.requester, spec.rating, spec.finishedAt])
    }
  }
}

/** The calendar date of an instant in `zone`. */
const localDate = (at: Date, zone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)

const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The first day of the period holding `date`: the 1st of its month, or its week's Monday, but never before `from`. */
function periodOf (date: string, from: string, by: 'month' | 'week'): string {
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7
  const start = by === 'month' ? `${date.slice(0, 8)}01` : addDays(date, -weekday)
  return start < from ? from : start
}

function median (values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const hidden = (count: number): boolean => count >= 1 && count <= 4

/** The summary docs/api/on-behalf.md › Reports for funders asks for, computed from the specs. */
export function expectedSummary (specs: readonly RequestSpec[], from: string, to: string, by: 'month' | 'week', zone: string): { suppressed_below: number, periods: any[] } {
  const starts: string[] = []
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const start = periodOf(date, from, by)
    if (!starts.includes(start)) starts.push(start)
  }
  const inPeriod = (at: Date | null, start: string): boolean => {
    if (at === null) return false
    const date = localDate(at, zone)
    return date >= from && date <= to && periodOf(date, from, by) === start
  }
  return {
    suppressed_below: 5,
    periods: starts.map((start) => {
      const created = specs.filter((s) => inPeriod(s.createdAt, start))
      const ended = specs.filter((s) => inPeriod(s.finishedAt, start))
      const completed = ended.filter((s) => s.status === 'completed')
      const suppressed: string[] = []
      const small = (name: string, count: number): number | null => {
        if (!hidden(count)) return count
        suppressed.push(name)
        return null
      }
      const people = small('people_helped', new Set(completed.map((s) => s.clientId !== null ? `client ${s.clientId}` : `user ${s.requester}`)).size)
      const volunteers = small('active_volunteers', new Set(completed.map((s) => s.offers.find((o) => o.status === 'accepted')!.volunteer)).size)
      const byType = Object.fromEntries(TYPE_NAMES.map((name, i) => [name, small(`by_type.${name}`, created.filter((s) => s.type === i + 1).length)]))
      const byUrgency = Object.fromEntries(URGENCY_NAMES.map((name) => [name, small(`by_urgency.${name}`, created.filter((s) => s.urgency === name).length)]))
      const minutes = (ms: number) => ms / MINUTE
      const helpMinutes = completed.reduce((sum, s) => sum + Math.min(720, minutes(s.finishedAt!.getTime() - s.offers.find((o) => o.acceptedAt !== null)!.acceptedAt!.getTime())), 0)
      const firstOffer = median(created.filter((s) => s.offers.length > 0).map((s) => minutes(s.offers[0]!.at.getTime() - s.createdAt.getTime())))
      const firstAccept = median(created.flatMap((s) => s.offers.filter((o) => o.acceptedAt !== null).map((o) => minutes(o.acceptedAt!.getTime() - s.createdAt.getTime()))))
      return {
        start,
        requests_created: created.length,
        requests_completed: completed.length,
        requests_cancelled: ended.filter((s) => s.status === 'cancelled' && s.cancelReason !== 'expired').length,
        requests_expired: ended.filter((s) => s.cancelReason === 'expired').length,
        people_helped: people,
        active_volunteers: volunteers,
        hours_of_help: Math.round(helpMinutes / 60 * 100) / 100,
        // docs/api/visit-checks.md › Hours and mileage: these requests are made by SQL, with nothing recorded (test/http/visits-expenses.test.ts counts it).
        hours_of_help_recorded: 0,
        distance_km: 0,
        median_minutes_to_first_offer: firstOffer === null ? null : Math.round(firstOffer * 10) / 10,
        median_minutes_to_accept: firstAccept === null ? null : Math.round(firstAccept * 10) / 10,
        by_type: byType,
        by_urgency: byUrgency,
        suppressed,
      }
    }),
  }
}
