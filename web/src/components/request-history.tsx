import { useQuery } from '@tanstack/react-query'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { api } from '../api/client'
import { ApiError, unwrap } from '../api/errors'
import type { paths } from '../api/schema'
import { formatDate } from '../lib/format'
import './request-history.css'
import { Loading } from './loading'

/** One entry of GET /requests/{id}/history (docs/api/on-behalf.md › A request's history). */
type HistoryEntry = paths['/api/v1/requests/{id}/history']['get']['responses'][200]['content']['application/json'][number]

export const historyKey = (id: number) => ['get', '/api/v1/requests/{id}/history', id] as const

/** The whom of "for Erna S.": the request's client, or the person a carer acted for. */
export interface OnBehalfNames { client?: string, person?: string }

/** "by Clara Koch (coordinator) for Erna S.", "by the service". */
function byline (t: TFunction, entry: HistoryEntry, names: OnBehalfNames): string {
  if (entry.actor.role === 'service') return t('history.byService')
  const name = entry.actor.name ?? t('history.someone')
  const role = t(`history.roles.${entry.actor.role}`, { defaultValue: entry.actor.role })
  const whom = entry.on_behalf_of === null ? undefined : 'client_id' in entry.on_behalf_of ? names.client : names.person
  return whom !== undefined ? t('history.byFor', { name, role, whom }) : t('history.by', { name, role })
}

/** What the details add in words: an alert round's number and how many were alerted (never who), why it was cancelled or withdrawn. */
function detailText (t: TFunction, entry: HistoryEntry): string | undefined {
  const details = entry.details ?? {}
  const number = (key: string): number | undefined => typeof details[key] === 'number' ? details[key] : undefined
  if (entry.action === 'alert_round') {
    const count = number('alerted') ?? number('count') ?? number('volunteers')
    const round = number('round')
    if (count === undefined) return undefined
    return round !== undefined ? t('history.details.roundAlerted', { round, count }) : t('history.details.alerted', { count })
  }
  if (entry.action === 'cancelled' && (details.reason === 'expired' || details.reason === 'series_changed')) return t(`history.details.${details.reason}`)
  if (entry.action === 'offer_withdrawn' && details.missed_confirmation === true) return t('history.details.missedConfirmation')
  if (entry.action === 'accepted' && details.automatic === true) return t('history.details.automatic')
  if (entry.action === 'checked_out' && details.by === 'completion') return t('history.details.checkedOutByCompletion')
  return undefined
}

/**
 * A request's history as a timeline (docs/api/on-behalf.md › A request's history and docs/web/on-behalf.md): an ordered list, oldest first as the API gives it,
 * each entry what happened, by whom in words ("for Erna S.", "by the service") and when. Shown to the request's
 * parties only: `party` false (the page knows the reader is none) asks nothing, since the API would answer 404
 * and the browser would log it as an error; a 404 all the same (a grant stopped meanwhile) shows nothing.
 */
export function RequestHistory ({ id, names = {}, party = true }: { id: number, names?: OnBehalfNames, party?: boolean }) {
  const { t, i18n } = useTranslation()
  const history = useQuery({
    queryKey: historyKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}/history', { params: { path: { id } }, signal })),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 3,
    enabled: party,
  })
  if (!party || (history.error instanceof ApiError && history.error.status === 404)) return null
  return (
    <section aria-labelledby='history-heading'>
      <h2 id='history-heading'>{t('history.title')}</h2>
      {history.isPending
        ? <Loading query={history} />
        : history.isError
          ? <p className='error-text'>{t('history.unavailable')}</p>
          : history.data.length === 0
            ? <p>{t('history.none')}</p>
            : (
              <ol className='timeline'>
                {history.data.map((entry, index) => {
                  const detail = detailText(t, entry)
                  return (
                    <li key={`${entry.at}-${index}`} className='timeline-item'>
                      <p className='timeline-title'>{t(`history.actions.${entry.action}`, { defaultValue: entry.action })}</p>
                      <p className='timeline-by'>{byline(t, entry, names)}</p>
                      <p className='timeline-when'><time dateTime={entry.at}>{formatDate(entry.at, i18n.language)}</time></p>
                      {detail !== undefined ? <p>{detail}</p> : null}
                      {entry.details?.via === 'sms' ? <p>{t('history.details.bySms')}</p> : null}
                    </li>
                  )
                })}
              </ol>
              )}
    </section>
  )
}
