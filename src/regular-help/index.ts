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
import { ONLY_ASSIGNED_CONFIRMS, ScheduleService } from './schedule/schedule.service.js'
import type { Origin } from '../events/dispatcher.js'
import type { ReplyOutcome } from '../events/notifications.js'
import { REQUEST_NOT_FOUND } from '../lib/errors.js'
import type { PrincipalSource } from '../lib/principal.js'
import { refusedAs } from '../help/text-replies.js'
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

export interface RegularHelp extends AreaParts {
  /** OK to a text asking to confirm (src/messaging/sms/replies.ts): the volunteer confirms, as POST /requests/{id}/confirm. */
  confirmByText: (userId: number, requestId: number, origin: Origin) => Promise<ReplyOutcome>
}

/** The API's refusals of a confirmation, in the words of its answer by text. */
const CONFIRM_REFUSALS: Readonly<Record<string, ReplyOutcome>> = { [ONLY_ASSIGNED_CONFIRMS]: 'not_assigned', [REQUEST_NOT_FOUND]: 'not_assigned' }

interface RegularHelpNeeds { disclosure: Disclosure, acting: ActingPolicy, principals: PrincipalSource }

export function regularHelpArea ({ config, db, changes, clock, log, options }: Wiring, { disclosure, acting, principals }: RegularHelpNeeds): RegularHelp {
  const jobs: Job[] = []
  const horizonTickMs = options.horizonTickMs ?? SCHEDULE_TICK_MS
  const scheduleTickMs = options.scheduleTickMs ?? SCHEDULE_TICK_MS
  const seriesSettings = { ...config.schedule, mapGridMeters: config.mapGridMeters, volunteerChecks: config.volunteerChecks, timeZone: config.timeZone }
  if (horizonTickMs > 0) jobs.push(horizonJob(new HorizonJob(changes, seriesSettings, log), horizonTickMs))
  if (scheduleTickMs > 0) jobs.push(scheduleJob(new ScheduleJobs(changes, config.schedule, clock), scheduleTickMs))
  const schedule = new ScheduleService(db, changes, disclosure, clock)
  return {
    jobs,
    confirmByText: async (userId, requestId, origin) => await refusedAs(principals, userId, CONFIRM_REFUSALS, async (volunteer) => {
      await schedule.confirm(volunteer, requestId, origin)
      return 'confirmed'
    }),
    routes: async (api) => {
      const settings = { ...disclosure.policy, ...config.schedule, timeZone: config.timeZone, volunteerChecks: config.volunteerChecks }
      await api.register(seriesRoutes, { series: new SeriesService(db, changes, clock, settings, disclosure.access, acting) })
      await api.register(scheduleRoutes, { schedule })
      const feedSettings = { publicUrl: publicUrlOf(config), apiPrefix: API_PREFIX, ...config.schedule }
      await api.register(calendarRoutes, { calendar: new CalendarService(db, disclosure, feedSettings, clock) })
    },
  }
}
