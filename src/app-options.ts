import type { Agent } from 'node:https'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import type { Clock } from './lib/clock.js'
import type { VapidIdentity } from './lib/vapid.js'
import type { Channels } from './messaging/deliveries/setup.js'
import type { StreamOptions } from './realtime/streams.js'

/** What buildApp (src/app.ts) is given: the settings and database, and what the service or a test chooses. */
export interface AppOptions {
  config: Config
  db: Database
  jwtSecret: string
  /** The built web app served at `/`; false serves the API alone. */
  webRoot?: string | false
  /** Where log lines go instead of stdout (tests capture them this way). */
  logStream?: { write(line: string): void }
  /** How often this instance looks for due alert rounds (default 1000 ms; 0: never, tests then run rounds themselves). */
  alertTickMs?: number
  /**
   * How often this instance runs the retention job (docs/privacy.md › `RETENTION_DAYS`), first when ready (default 0: never;
   * the service runs it hourly, src/main.ts; tests run it themselves). Runs only when RETENTION_DAYS or
   * NOTIFICATION_RETENTION_DAYS asks for something.
   */
  retentionMs?: number
  /**
   * How often this instance sends due check_expiring notices (docs/api/accounts.md › Checks that vet volunteers), first when ready (default 0:
   * never; the service does it hourly, src/main.ts; tests run CheckExpiryNotifier themselves).
   */
  checkExpiryMs?: number
  /**
   * How often this instance creates the occurrences of active series up to SERIES_HORIZON_DAYS ahead
   * (docs/api/schedule.md › Series), first when ready (default 60 000 ms; 0: never, tests then run HorizonJob themselves).
   */
  horizonTickMs?: number
  /**
   * How often this instance runs the schedule job (docs/api/schedule.md › Confirmation, reminders, expiry: confirmations, reminders, expiry, "still
   * needed?"), first when ready (default 60 000 ms; 0: never, tests then run ScheduleJobs themselves).
   */
  scheduleTickMs?: number
  /**
   * How often this instance runs the visit job (docs/api/visit-checks.md: not started, overdue, the urgent concern) when
   * VISIT_CHECKS=on, first when ready (default 60 000 ms; 0: never, tests then run VisitJobs themselves).
   */
  visitTickMs?: number
  /** Live event stream settings (tests shorten the ping and block-check intervals). */
  streams?: Partial<StreamOptions>
  /** The time for every rule that depends on it (default: the system's; tests pass a ManualClock). */
  clock?: Clock
  /** The Web Push identity (src/lib/vapid.ts resolveVapid, in src/main.ts); undefined: push is off (docs/api/messaging.md › Deliveries and e-mail). */
  push?: VapidIdentity | undefined
  /** The https agent pushes go through: tests pass one that trusts their receiver's certificate (no setting for this). */
  pushAgent?: Agent
  /**
   * How often this instance looks for due e-mail and push deliveries (docs/api/messaging.md › Deliveries and e-mail; default 1000 ms, so a
   * delivery leaves within seconds of its commit; 0: never, tests then run the sender themselves).
   */
  deliveryTickMs?: number
  /** The ways out: e-mail from SMTP_URL or MAIL_DIR unless given; push only when given (it is off otherwise). */
  channels?: Partial<Channels>
}
