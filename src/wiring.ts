import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify'
import type { AppOptions } from './app-options.js'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import type { Changes } from './events/dispatcher.js'
import type { Job } from './jobs/job.js'
import type { Calendar } from './lib/checks.js'
import type { Clock } from './lib/clock.js'

/** What every area is built from: the settings, the database, the one dispatcher and clock of the app. */
export interface Wiring {
  config: Config
  db: Database
  jwtSecret: string
  changes: Changes
  clock: Clock
  /** Today in TIME_ZONE: the day through which a check is valid. */
  calendar: Calendar
  log: FastifyBaseLogger
  options: AppOptions
}

/** What an area adds to the app: its routes (under the API's prefix), its background jobs, what to close at the end. */
export interface AreaParts {
  routes: FastifyPluginAsync
  jobs: readonly Job[]
  close?: () => Promise<void>
}
