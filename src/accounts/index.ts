import { accessTokens, type AccessTokens } from '../lib/tokens.js'
import type { AreaParts, Wiring } from '../wiring.js'
import { AccessRecorder } from './access/access.recorder.js'
import { accessRoutes } from './access/access.routes.js'
import { AccessService } from './access/access.service.js'
import { authRoutes } from './auth/auth.routes.js'
import { AuthService } from './auth/auth.service.js'
import { AccountCodes } from './auth/codes.js'
import { PrincipalCache } from './auth/principals.js'
import { RecoveryService } from './auth/recovery.service.js'
import { verifyEmailRoutes } from './auth/verify-email.routes.js'
import { CheckExpiryNotifier, checkExpiryJob } from './checks/check-expiry.js'
import { checksRoutes } from './checks/checks.routes.js'
import { ChecksService } from './checks/checks.service.js'
import { rolesRoutes } from './roles/roles.routes.js'
import { RolesService } from './roles/roles.service.js'
import { accountSettingsRoutes } from './session/account-settings.routes.js'
import { sessionRoutes } from './session/session.routes.js'
import { phoneRoutes } from './users/phone.routes.js'
import { PhoneService } from './users/phone.service.js'
import { usersRoutes } from './users/users.routes.js'
import { UsersService } from './users/users.service.js'

/** Accounts: registration and sign-in, sessions, profiles, roles, checks, and the log of who has seen a person's details. */
export { accessReactions } from './access/access.reactions.js'
export { authReactions } from './auth/auth.reactions.js'
export { checksReactions } from './checks/checks.reactions.js'
export { rolesReactions } from './roles/roles.reactions.js'
export { usersReactions } from './users/users.reactions.js'

export interface Accounts extends AreaParts {
  tokens: AccessTokens
  /** Each instance's short-lived view of a user's roles and blocked flag (AUTH_CACHE_TTL_MS). */
  principals: PrincipalCache
  /** Who has been shown contact details, written before each answer that shows them leaves. */
  access: AccessRecorder
}

export function accountsArea ({ config, db, jwtSecret, changes, clock, calendar, options }: Wiring): Accounts {
  const tokens = accessTokens(jwtSecret, config.accessTokenTtlSeconds, clock)
  const principals = new PrincipalCache(db, config.authCacheTtlMs, clock)
  // Codes are hashed and sealed with keys from the signing secret, which every instance shares.
  const codes = new AccountCodes(jwtSecret)
  const authSettings = { scrypt: config.scrypt, passwordQueueMs: config.passwordQueueSeconds * 1000, refreshTokenTtlDays: config.refreshTokenTtlDays, emailVerification: config.emailVerification }
  const auth = new AuthService(db, changes, codes, tokens, authSettings, clock)
  const recovery = new RecoveryService(db, changes, codes, auth, authSettings)
  const access = new AccessRecorder(db)
  const checkExpiryMs = options.checkExpiryMs ?? 0
  return {
    tokens,
    principals,
    access,
    jobs: checkExpiryMs > 0 ? [checkExpiryJob(new CheckExpiryNotifier(changes, calendar), checkExpiryMs)] : [],
    routes: async (api) => {
      await api.register(authRoutes, { auth, recovery })
      await api.register(sessionRoutes, { auth, recovery, refreshTokenTtlDays: config.refreshTokenTtlDays })
      const users = new UsersService(db, changes, calendar, access, config.addressPrivacy)
      await api.register(usersRoutes, { users })
      await api.register(verifyEmailRoutes, { users, recovery, emailVerification: config.emailVerification })
      await api.register(phoneRoutes, { phone: new PhoneService(db, changes, codes, config.smsDefaultCountry) })
      await api.register(rolesRoutes, { roles: new RolesService(db, changes, principals, calendar) })
      await api.register(checksRoutes, { checks: new ChecksService(db, calendar) })
      await api.register(accountSettingsRoutes, { emailVerification: config.emailVerification, volunteerChecks: config.volunteerChecks, phoneCountry: config.smsDefaultCountry, visitChecks: config.visits.checks })
      await api.register(accessRoutes, { access: new AccessService(db) })
    },
  }
}
