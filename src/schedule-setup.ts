/**
 * The wiring of docs/api/schedule.md (series, the confirmation and reminder jobs, the calendar feed) for src/app.ts, kept here so that
 * file stays readable: the two jobs for the runner and one plugin with the three modules' routes.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import type { Changes } from './events/dispatcher.js'
import { API_PREFIX } from './http/openapi.js'
import type { Job, JobErrorLog } from './jobs/job.js'
import type { Clock } from './lib/clock.js'
import { calendarRoutes } from './modules/calendar/calendar.routes.js'
import { CalendarService } from './modules/calendar/calendar.service.js'
import { publicUrlOf } from './modules/deliveries/setup.js'
import type { Disclosure } from './modules/requests/disclosure.js'
import { ScheduleJobs, scheduleJob } from './modules/schedule/schedule-jobs.js'
import { scheduleRoutes } from './modules/schedule/schedule.routes.js'
import { ScheduleService } from './modules/schedule/schedule.service.js'
import { HorizonJob, horizonJob } from './modules/series/horizon.js'
import { seriesRoutes } from './modules/series/series.routes.js'
import { SeriesService } from './modules/series/series.service.js'

/** The confirmation and reminder times, and the series' horizon, are hours and days ahead: a minute's delay is well within them. */
export const SCHEDULE_TICK_MS = 60_000

/** The horizon job (series) and the confirmation, reminder and expiry job; a tick of 0 leaves one out (tests run it themselves). */
export function scheduleJobsFor (config: Config, changes: Changes, clock: Clock, log: JobErrorLog, ticks: { horizonTickMs: number, scheduleTickMs: number }): Job[] {
  const jobs: Job[] = []
  const seriesSettings = { ...config.schedule, mapGridMeters: config.mapGridMeters, volunteerChecks: config.volunteerChecks, timeZone: config.timeZone }
  if (ticks.horizonTickMs > 0) jobs.push(horizonJob(new HorizonJob(changes, seriesSettings, log), ticks.horizonTickMs))
  if (ticks.scheduleTickMs > 0) jobs.push(scheduleJob(new ScheduleJobs(changes, config.schedule, clock), ticks.scheduleTickMs))
  return jobs
}

interface ScheduleApi { config: Config, db: Database, changes: Changes, disclosure: Disclosure, clock: Clock }

/** The routes of series, confirmations and "still needed", and the calendar feed, under the API's prefix. */
export const scheduleApi: FastifyPluginAsync<ScheduleApi> = async (api, { config, db, changes, disclosure, clock }) => {
  const seriesSettings = { ...disclosure.policy, ...config.schedule, timeZone: config.timeZone, volunteerChecks: config.volunteerChecks }
  await api.register(seriesRoutes, { series: new SeriesService(db, changes, clock, seriesSettings, disclosure.access) })
  await api.register(scheduleRoutes, { schedule: new ScheduleService(db, changes, disclosure, clock) })
  const feedSettings = { publicUrl: publicUrlOf(config), apiPrefix: API_PREFIX, ...config.schedule }
  await api.register(calendarRoutes, { calendar: new CalendarService(db, disclosure, feedSettings, clock) })
}
