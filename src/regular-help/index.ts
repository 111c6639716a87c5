import type { OccurrenceSeries } from '../help/responses/responses.service.js'
import type { ActingPolicy } from '../help/requests/acting.js'
import type { Disclosure } from '../help/requests/disclosure.js'
import { API_PREFIX } from '../http/openapi.js'
import type { Job } from '../jobs/job.js'
import { publicUrlOf } from '../messaging/index.js'
import type { AreaParts, Wiring } from '../wiring.js'
import { calendarRoutes } from './calendar/calendar.routes.js'
import { CalendarService } from './calendar/calendar.service.js'
import { ScheduleJobs, scheduleJob } from './schedule/schedule-jobs.js'
import { scheduleRoutes } from './schedule/schedule.routes.js'
import { ScheduleService } from './schedule/schedule.service.js'
import { HorizonJob, horizonJob } from './series/horizon.js'
import { autoAcceptsPreferred, lockSeriesOfRequest } from './series/series.repo.js'
import { seriesRoutes } from './series/series.routes.js'
import { SeriesService } from './series/series.service.js'

/** Regular help: series of requests, the volunteer's confirmation, reminders and expiry, the calendar feed. */
export { calendarReactions } from './calendar/calendar.reactions.js'
export { seriesReactions } from './series/series.reactions.js'

/** The confirmations and reminders are hours, and the horizon days, ahead: a minute's delay is well within them. */
export const SCHEDULE_TICK_MS = 60_000

/** What help/'s offers need of an occurrence's series, handed down to it. */
export const occurrenceSeries: OccurrenceSeries = { lock: lockSeriesOfRequest, autoAccepts: autoAcceptsPreferred }

export function regularHelpArea ({ config, db, changes, clock, log, options }: Wiring, { disclosure, acting }: { disclosure: Disclosure, acting: ActingPolicy }): AreaParts {
  const jobs: Job[] = []
  const horizonTickMs = options.horizonTickMs ?? SCHEDULE_TICK_MS
  const scheduleTickMs = options.scheduleTickMs ?? SCHEDULE_TICK_MS
  const seriesSettings = { ...config.schedule, mapGridMeters: config.mapGridMeters, volunteerChecks: config.volunteerChecks, timeZone: config.timeZone }
  if (horizonTickMs > 0) jobs.push(horizonJob(new HorizonJob(changes, seriesSettings, log), horizonTickMs))
  if (scheduleTickMs > 0) jobs.push(scheduleJob(new ScheduleJobs(changes, config.schedule, clock), scheduleTickMs))
  return {
    jobs,
    routes: async (api) => {
      const settings = { ...disclosure.policy, ...config.schedule, timeZone: config.timeZone, volunteerChecks: config.volunteerChecks }
      await api.register(seriesRoutes, { series: new SeriesService(db, changes, clock, settings, disclosure.access, acting) })
      await api.register(scheduleRoutes, { schedule: new ScheduleService(db, changes, disclosure, clock) })
      const feedSettings = { publicUrl: publicUrlOf(config), apiPrefix: API_PREFIX, ...config.schedule }
      await api.register(calendarRoutes, { calendar: new CalendarService(db, disclosure, feedSettings, clock) })
    },
  }
}
