import type { AreaParts, Wiring } from '../wiring.js'
import { carersRoutes } from './carers/carers.routes.js'
import { CarersService } from './carers/carers.service.js'
import { clientsRoutes } from './clients/clients.routes.js'
import { ClientsService } from './clients/clients.service.js'
import { historyRoutes } from './history/history.routes.js'
import { HistoryService } from './history/history.service.js'
import { reportsRoutes } from './reports/reports.routes.js'
import { ReportsService } from './reports/reports.service.js'

/** On someone's behalf: coordinators' clients, carers, a request's history, and the reports for funders. */
export { actingPolicy } from './acting.js'
export { carersReactions } from './carers/carers.reactions.js'
export { historyReactions } from './history/history.reactions.js'

export function onBehalfArea ({ config, db, changes, clock }: Wiring): AreaParts {
  return {
    jobs: [],
    routes: async (api) => {
      await api.register(historyRoutes, { history: new HistoryService(db) })
      await api.register(clientsRoutes, { clients: new ClientsService(db, changes, clock, { mapGridMeters: config.mapGridMeters }) })
      await api.register(carersRoutes, { carers: new CarersService(db, changes) })
      await api.register(reportsRoutes, { reports: new ReportsService(db, { timeZone: config.timeZone, mapGridMeters: config.mapGridMeters, mileageRateCents: config.visits.mileageRateCents }, clock) })
    },
  }
}
