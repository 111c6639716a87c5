import type { Config } from '../config.js'
import type { AccessRecorder } from '../accounts/access/access.recorder.js'
import type { PrincipalCache } from '../accounts/auth/principals.js'
import { gridPoint, type GridPoint } from '../lib/grid.js'
import type { AreaParts, Wiring } from '../wiring.js'
import { AlertService, alertRoundsJob } from './alerts/alerts.service.js'
import { CatchUpService, catchUpJob } from './alerts/catch-up.service.js'
import { availabilityRoutes } from './availability/availability.routes.js'
import { AvailabilityService } from './availability/availability.service.js'
import { concernsRoutes } from './concerns/concerns.routes.js'
import { ConcernsService } from './concerns/concerns.service.js'
import { moderationRoutes } from './moderation/moderation.routes.js'
import { ModerationService } from './moderation/moderation.service.js'
import { requestTypesRoutes } from './request-types/request-types.routes.js'
import { needsRoutes } from './needs/needs.routes.js'
import { findLocale } from '../accounts/users/users.repo.js'
import { RequestTypesService } from './request-types/request-types.service.js'
import type { ActingPolicy } from './requests/acting.js'
import { Disclosure } from './requests/disclosure.js'
import { requestsRoutes } from './requests/requests.routes.js'
import { MapSettings } from './requests/requests.schemas.js'
import { RequestsService } from './requests/requests.service.js'
import type { SearchContext } from './requests/search/context.js'
import { responsesRoutes } from './responses/responses.routes.js'
import { ResponsesService, type OccurrenceSeries } from './responses/responses.service.js'
import { VisitJobs, visitJob } from './visits/visit-jobs.js'
import { visitsRoutes } from './visits/visits.routes.js'
import { VisitsService } from './visits/visits.service.js'

/** Help: requests and their searches, moderation, offers and their lifecycle, alerts, availability, concerns. */
export { alertsReactions } from './alerts/alerts.reactions.js'
export { availabilityReactions } from './availability/availability.reactions.js'
export { responsesReactions } from './responses/responses.reactions.js'
export { visitsReactions } from './visits/visits.reactions.js'

const ALERT_TICK_MS = 1000
/** The visit checks' times are minutes (docs/api/visit-checks.md): a run a minute is well within them. */
export const VISIT_TICK_MS = 60_000

/** Under LOCATION_PRIVACY=grid alerts, like searches, see each request at its grid point. */
export function alertPlace (config: Config): ((latitude: number, longitude: number) => GridPoint) | undefined {
  return config.locationPrivacy === 'grid' ? (latitude, longitude) => gridPoint(latitude, longitude, config.mapGridMeters) : undefined
}

import { HelpReplies } from './text-replies.js'

/** What help/ is handed: from accounts/ below, and the ports of the areas above (on-behalf/, regular-help/). */
export interface HelpNeeds {
  principals: PrincipalCache
  access: AccessRecorder
  acting: ActingPolicy
  series: OccurrenceSeries
}

export interface Help extends AreaParts {
  /** What every answer carrying a request shows and records. */
  disclosure: Disclosure
  /** YES and NO by text (src/messaging/sms/replies.ts), through the services the API calls. */
  replies: HelpReplies
}

export function helpArea ({ config, db, changes, clock, calendar, options }: Wiring, { principals, access, acting, series }: HelpNeeds): Help {
  const disclosure = new Disclosure(access, { mapGridMeters: config.mapGridMeters, addressPrivacy: config.addressPrivacy }, clock)
  const search: SearchContext = {
    db,
    policy: {
      locationPrivacy: config.locationPrivacy,
      unmoderatedInSearch: config.unmoderatedInSearch,
      ...disclosure.policy,
      boundsResultCap: config.boundsResultCap,
      mapMarkerCap: config.mapMarkerCap,
    },
    disclosure,
    today: () => calendar.today(),
  }
  const alertTickMs = options.alertTickMs ?? ALERT_TICK_MS
  const alertChecks = { required: config.volunteerChecks, timeZone: config.timeZone }
  const jobs = alertTickMs > 0
    ? [
        alertRoundsJob(new AlertService(changes, config.alerts, clock, 'fair', alertPlace(config), alertChecks), alertTickMs),
        // Volunteers coming on duty are told of open requests within 5 s (ticks of a second by default).
        catchUpJob(new CatchUpService(changes, config.alerts, clock, alertPlace(config), alertChecks), alertTickMs),
      ]
    : []
  const visitTickMs = options.visitTickMs ?? VISIT_TICK_MS
  const visitJobs = config.visits.checks === 'on' && visitTickMs > 0
    ? [visitJob(new VisitJobs(changes, { ...config.visits, timeZone: config.timeZone }), visitTickMs)]
    : []
  // Fixed for the life of the process: worked out once.
  const mapSettings = { tile_url: config.mapTileUrl, attribution: config.mapTileAttribution, geocoder_url: config.geocoderUrl?.replace(/\/+$/, '') ?? null }
  const requests = new RequestsService(db, changes, disclosure, acting, calendar)
  const responses = new ResponsesService(db, changes, { required: config.volunteerChecks, calendar }, acting, series)
  return {
    disclosure,
    replies: new HelpReplies(principals, responses, requests),
    jobs: [...jobs, ...visitJobs],
    routes: async (api) => {
      api.get('/map-settings', {
        schema: {
          tags: ['requests'],
          summary: 'Where the web app\'s map pictures come from, their credit, and the geocoder',
          description: 'MAP_TILE_URL, MAP_TILE_ATTRIBUTION and GEOCODER_URL (null when off); docs/web.md › Map. Public: nothing in it is secret.',
          response: { 200: MapSettings },
        },
        config: { auth: 'none', extension: true, usesDatabase: false },
      }, async () => mapSettings)
      await api.register(needsRoutes, { locales: { localeOf: (userId) => findLocale(db, userId) } })
      await api.register(requestTypesRoutes, { requestTypes: new RequestTypesService(db) })
      await api.register(requestsRoutes, { requests, search })
      await api.register(moderationRoutes, { moderation: new ModerationService(db, changes, disclosure) })
      await api.register(responsesRoutes, { responses })
      await api.register(concernsRoutes, { concerns: new ConcernsService(db, changes, principals, clock) })
      await api.register(availabilityRoutes, { availability: new AvailabilityService(db, changes) })
      await api.register(visitsRoutes, { visits: new VisitsService(db, changes, acting, config.visits) })
    },
  }
}
