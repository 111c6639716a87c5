import type { TFunction } from 'i18next'
import { ApiError } from '../../api/errors'
import { serverProblem, type Problem } from '../../i18n/server-errors'

/** API texts of the volunteer, moderation and admin journeys, to a field (when it has one) and a message. */
const KNOWN: Record<string, { field?: string, key: string }> = {
  'already responded to this request': { key: 'volunteer.errors.alreadyOffered' },
  'request is not open for responses': { key: 'volunteer.errors.notOpen' },
  'cannot respond to own request': { key: 'volunteer.errors.ownRequest' },
  'request not found': { key: 'volunteer.errors.requestNotFound' },
  'response is already cancelled': { key: 'volunteer.errors.alreadyWithdrawn' },
  'response is already rejected': { key: 'volunteer.errors.alreadyRejected' },
  'cannot withdraw from a completed request': { key: 'volunteer.errors.completed' },
  'invalid radius': { field: 'radius', key: 'volunteer.errors.radius' },
  'invalid latitude': { field: 'latitude', key: 'errors.latitudeInvalid' },
  'invalid longitude': { field: 'longitude', key: 'errors.longitudeInvalid' },
  'comment is required when rejecting': { field: 'comment', key: 'moderation.errors.commentRequired' },
  'request is not in pending_moderation status': { key: 'moderation.errors.alreadyDecided' },
  'cannot moderate own request': { key: 'moderation.errors.own' },
  'cannot remove the last admin': { key: 'admin.errors.lastAdmin' },
  'cannot block yourself': { key: 'admin.errors.blockSelf' },
  'moderator role required': { key: 'moderation.errors.notModerator' },
  'admin role required': { key: 'admin.errors.notAdmin' },
  'respond_request permission required': { key: 'volunteer.errors.noPermission' },
}

export function journeyProblem (error: unknown, t: TFunction, fields: readonly string[] = []): Problem {
  if (error instanceof ApiError && !error.offline) {
    const known = KNOWN[error.text]
    if (known !== undefined) {
      return known.field !== undefined && fields.includes(known.field) ? { field: known.field, message: t(known.key) } : { message: t(known.key) }
    }
  }
  return serverProblem(error, t, fields)
}
