import { after, before } from 'node:test'
import { changesOn } from '../../src/areas.js'
import { HorizonJob } from '../../src/regular-help/series/horizon.js'
import { startApp, type Account, type TestApp } from './app.js'
import { assertStatus } from './assert.js'
import { ManualClock } from './clock.js'
import type { Engine } from './engines.js'
import { requestInput } from './requests.js'

/** The series tests' zone (docs/api/schedule.md › Series): in 2027 summer time starts on 28 March and ends on 31 October. */
export const SERIES_ZONE = 'Europe/Berlin'
/** Monday 15 March 2027, 10:00 in Berlin (UTC+1), where the series tests' clock starts. */
export const SERIES_START = new Date('2027-03-15T09:00:00Z')

export interface Occurrence { id: number, title: string, status: string, window_start: string, window_end: string, series_id: number }

export interface SeriesSuite {
  /** The app, started before the describe block's tests and closed after them. */
  readonly t: TestApp
  /** A moderator of the app, who approves the series. */
  readonly moderator: Account
  /** The app's clock; the horizon job does not tick, a test runs it with `job()`. */
  readonly clock: ManualClock
  /** The horizon job (28 days) on `on`'s database (the suite's app unless told), on the suite's clock. */
  job: (on?: TestApp) => HorizonJob
  /** A series body: 'Lift to dialysis' on Tuesdays and Thursdays, 07:30 for three hours, from 16 March; `overrides` replace its fields. */
  input: (overrides?: Record<string, unknown>) => Record<string, unknown>
  /** A new series of `requester`'s from `input(overrides)`, pending moderation (201 asserted). */
  create: (requester: Account, overrides?: Record<string, unknown>) => Promise<any>
  /** The same, approved by the moderator: active, with its occurrences to the horizon. */
  approved: (requester: Account, overrides?: Record<string, unknown>) => Promise<any>
  /** The series' occurrences (its requester's requests), oldest window first. */
  occurrences: (requester: Account, seriesId: number) => Promise<Occurrence[]>
}

/**
 * The app of a describe block of series tests on `engine`, and the steps they share; call it inside the block. The app runs
 * in `zone` on a clock at `start`, with access tokens that outlast the months a test moves the clock through.
 */
export function seriesSuite (engine: Engine, zone = SERIES_ZONE, start = SERIES_START): SeriesSuite {
  const clock = new ManualClock(start)
  let t: TestApp
  let moderator: Account
  before(async () => {
    t = await startApp(engine, { timeZone: zone, accessTokenTtlSeconds: 3650 * 86400 }, { alertTickMs: 0, clock })
    moderator = await t.registerWithRole('moderator')
  })
  after(() => t.close())

  const silent = { error () {}, info () {} }
  const job = (on: TestApp = t) => new HorizonJob(changesOn(on.db, clock), { horizonDays: 28, mapGridMeters: 300, preferredHoldHours: 24, volunteerChecks: [], timeZone: zone }, silent)
  const input = (overrides: Record<string, unknown> = {}) => ({
    template: requestInput({ title: 'Lift to dialysis' }), days: ['thu', 'tue'], start_time: '07:30', duration_minutes: 180, starts_on: '2027-03-16', ...overrides,
  })
  async function create (requester: Account, overrides: Record<string, unknown> = {}): Promise<any> {
    const res = await t.post('/request-series', input(overrides), requester.token)
    assertStatus(res, 201)
    return res.body
  }
  async function approved (requester: Account, overrides: Record<string, unknown> = {}): Promise<any> {
    const series = await create(requester, overrides)
    const res = await t.post(`/moderation/series/${series.id as number}/approve`, {}, moderator.token)
    assertStatus(res, 200)
    return res.body
  }
  async function occurrences (requester: Account, seriesId: number): Promise<Occurrence[]> {
    const res = await t.get<Occurrence[]>('/requests/my?limit=100', requester.token)
    assertStatus(res, 200)
    return res.body.filter((r) => r.series_id === seriesId).sort((a, b) => a.window_start.localeCompare(b.window_start) || a.id - b.id)
  }
  return {
    get t () { return t },
    get moderator () { return moderator },
    clock,
    job,
    input,
    create,
    approved,
    occurrences,
  }
}
