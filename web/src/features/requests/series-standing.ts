import { useTranslation } from 'react-i18next'
import { useActingFor, type Can } from '../../api/acting-for'
import { shortName, useClient } from '../../api/clients'
import { canCoordinate, useMyRoles } from '../../api/use-my-roles'
import { useSession } from '../../api/use-session'

/** Whose side of a series the viewer is on, as the API decides it (docs/api/on-behalf.md › Series for someone). */
export interface SeriesStanding {
  /** Where its coming dates are read: the viewer's own requests, a carer's person's, or the coordinators' list. */
  dates?: { mine: true } | { forUserId: number } | { clientId: number }
  /** For whom, when it is not the viewer: "Erna S." (a client) or "Rita Person" (a carer's person). */
  forName?: string
  /** The page a "back" link leads to, and its words. */
  back: { href: string, label: string }
  change: boolean
  skip: boolean
  stop: boolean
}

/**
 * Who may do what on a series is who may act on its requests: its requester; every coordinator on a client's series;
 * a carer by her grant (a change needs `create`, skipping a date and ending it `cancel`); moderators and admins may end
 * any. The series carries no name, so a client's is read from the client's record and a person's from the acting-for list.
 */
export function useSeriesStanding (series: { requester_id: number, client_id: number | null }): SeriesStanding | undefined {
  const { t } = useTranslation()
  const { user } = useSession()
  const roles = useMyRoles()
  const coordinator = series.client_id !== null && canCoordinate(roles)
  const client = useClient(coordinator ? series.client_id ?? 0 : 0)
  const mine = series.client_id === null && series.requester_id === user?.id
  const actingFor = useActingFor(!mine && series.client_id === null)
  if (coordinator && series.client_id !== null) {
    if (client.isPending) return undefined
    const name = client.data !== undefined ? shortName(client.data) : undefined
    const back = { href: `/clients/${series.client_id}`, label: name !== undefined ? t('regular.for.backToClient', { name }) : t('coordinator.requests.title') }
    return { dates: { clientId: series.client_id }, forName: name, back, change: true, skip: true, stop: true }
  }
  const mineBack = { href: '/requests/mine', label: t('mine.title') }
  if (mine) return { dates: { mine: true }, back: mineBack, change: true, skip: true, stop: true }
  if (actingFor.isPending && series.client_id === null) return undefined
  const grant = actingFor.data?.find((item) => item.user_id === series.requester_id && item.status === 'accepted')
  if (grant !== undefined) {
    const can = (what: Can) => grant.can.includes(what)
    const back = { href: `/people-i-help/${grant.user_id}`, label: t('carers.act.back', { name: grant.name }) }
    return { dates: { forUserId: grant.user_id }, forName: grant.name, back, change: can('create'), skip: can('cancel'), stop: can('cancel') }
  }
  // A moderator or admin: reads it and may end it (the API's moderators' end); its dates are not theirs to list.
  return { back: mineBack, change: false, skip: false, stop: true }
}
