import type { PrincipalCache } from '../accounts/auth/principals.js'
import type { AreaParts, Wiring } from '../wiring.js'
import { privacyRoutes } from './privacy/privacy.routes.js'
import { PrivacyService } from './privacy/privacy.service.js'
import { RetentionJob, retentionJob } from './privacy/retention.js'

/** Data protection: a person's export and erasure, and the retention job that minimises what has ended. */
export function dataProtectionArea ({ config, db, changes, clock, calendar, log, options }: Wiring, { principals }: { principals: PrincipalCache }): AreaParts {
  const retention = new RetentionJob(db, {
    retentionDays: config.retentionDays,
    notificationRetentionDays: config.notificationRetentionDays,
    clientRetentionDays: config.clientRetentionDays,
    mapGridMeters: config.mapGridMeters,
  }, log, clock)
  const retentionMs = options.retentionMs ?? 0
  return {
    jobs: retentionMs > 0 && retention.enabled ? [retentionJob(retention, retentionMs)] : [],
    routes: async (api) => {
      await api.register(privacyRoutes, { privacy: new PrivacyService(db, changes, principals, { mapGridMeters: config.mapGridMeters }, calendar) })
    },
  }
}
