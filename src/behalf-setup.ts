/**
 * The wiring of docs/api/on-behalf.md (clients, carers, a request's history, reports) for src/app.ts, kept here so that
 * file stays readable: one plugin with the four modules' routes, registered under the API's prefix.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import type { Changes } from './events/dispatcher.js'
import type { Clock } from './lib/clock.js'
import { carersRoutes } from './modules/carers/carers.routes.js'
import { CarersService } from './modules/carers/carers.service.js'
import { clientsRoutes } from './modules/clients/clients.routes.js'
import { ClientsService } from './modules/clients/clients.service.js'
import { historyRoutes } from './modules/history/history.routes.js'
import { HistoryService } from './modules/history/history.service.js'
import { reportsRoutes } from './modules/reports/reports.routes.js'
import { ReportsService } from './modules/reports/reports.service.js'

interface BehalfApi { config: Config, db: Database, changes: Changes, clock: Clock }

/** The routes of clients, carers, a request's history and the reports (docs/api/on-behalf.md). */
export const behalfApi: FastifyPluginAsync<BehalfApi> = async (api, { config, db, changes, clock }) => {
  await api.register(historyRoutes, { history: new HistoryService(db) })
  await api.register(clientsRoutes, { clients: new ClientsService(db, changes, clock, { mapGridMeters: config.mapGridMeters }) })
  await api.register(carersRoutes, { carers: new CarersService(db, changes) })
  await api.register(reportsRoutes, { reports: new ReportsService(db, { timeZone: config.timeZone, mapGridMeters: config.mapGridMeters }, clock) })
}
