import type { TFunction } from 'i18next'
import { useActingFor, type Can } from '../../api/acting-for'
import { ApiError } from '../../api/errors'
import { canCoordinate, useMyRoles } from '../../api/use-my-roles'
import { useSession } from '../../api/use-session'
import { serverProblem } from '../../i18n/server-errors'

/** What a requester does on her request, and a carer only when the person granted it (docs/api/on-behalf.md › Carers). */
export type RequesterAction = 'accept' | 'cancel' | 'complete'

/**
 * In what capacity the signed-in person sees a request: as its requester (herself, or any coordinator on a
 * client's request, docs/api/on-behalf.md › Coordinators and clients), as a carer of its requester (an accepted grant in the acting-for list, with
 * what it allows), or as anyone else. The request's answer does not say that the viewer is a carer, so the
 * app reads the grant's `can` list, the same the API decides by (src/help/requests/acting.ts), and never guesses.
 */
export type Standing =
  | { kind: 'loading' }
  | { kind: 'requester' }
  | { kind: 'carer', personId: number, name: string, can: readonly Can[] }
  | { kind: 'other' }

export function useStanding (request: { requester_id: number, client_id: number | null } | undefined): Standing {
  const { user } = useSession()
  const roles = useMyRoles()
  const direct = request !== undefined && user !== undefined && (request.client_id !== null ? canCoordinate(roles) : request.requester_id === user.id)
  // A client has no account, so nobody is her carer; the list is read only when it can matter.
  const maybeCarer = request !== undefined && !direct && request.client_id === null
  const actingFor = useActingFor(maybeCarer)
  if (request === undefined) return { kind: 'loading' }
  if (direct) return { kind: 'requester' }
  if (!maybeCarer) return { kind: 'other' }
  // Waiting only while it is being fetched: offline (a paused query; the list is not kept for offline reading) the
  // request's kept answer is shown as to anyone else rather than "Loading…" for ever.
  if (actingFor.isLoading) return { kind: 'loading' }
  const grant = actingFor.data?.find((item) => item.user_id === request.requester_id && item.status === 'accepted')
  return grant !== undefined ? { kind: 'carer', personId: grant.user_id, name: grant.name, can: grant.can } : { kind: 'other' }
}

/** Whether the page offers `action`: always to the requester, to a carer only as granted. */
export function may (standing: Standing, action: RequesterAction): boolean {
  return standing.kind === 'requester' || (standing.kind === 'carer' && standing.can.includes(action))
}

/** The person's name when the viewer acts for them, for the words that name whom an action was for. */
export const actingForName = (standing: Standing): string | undefined => standing.kind === 'carer' ? standing.name : undefined

/**
 * A refused action in words. To a carer, 403 'not allowed for this person', 404, and the 400 'only the
 * requester can …' that the API gives once the grant is gone (an open request is visible to anyone) all mean
 * the same: the person stopped the help or changed what the carer may do since the page was read.
 */
export function actionProblem (error: unknown, t: TFunction, person: string | undefined): string {
  const refused = error instanceof ApiError && !error.offline &&
    (error.status === 403 || error.status === 404 || (error.status === 400 && error.text.startsWith('only the requester can')))
  return person !== undefined && refused ? t('carers.act.refused', { name: person }) : serverProblem(error, t, []).message
}
