import { useInfiniteQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { useOwnRequestTitles } from '../../api/use-own-titles'
import { useRequest } from '../../api/use-request'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'

/** One record of who saw someone's contact details (docs/privacy.md › Access records); `request_id` only in the profile's log. */
interface AccessRecord {
  viewer_id: number
  viewer_name: string
  viewer_role: string
  fields: string[]
  at: string
  request_id?: number | null
}

/** Records asked for at a time: a log grows by one a visit at most every ten minutes, so one page is usually all of it. */
const PAGE_SIZE = 50

/**
 * A log read page by page, newest first. "Show older records" appends the next page and moves focus to the
 * first record it brought, so a screen-reader or keyboard user goes on reading where the list grew.
 */
function useAccessLog (key: readonly unknown[], fetchPage: (offset: number, signal: AbortSignal) => Promise<AccessRecord[]>, enabled = true) {
  return useInfiniteQuery({
    queryKey: key,
    enabled,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, all) => last.length < PAGE_SIZE ? undefined : all.length * PAGE_SIZE,
  })
}

function Records ({ log, none }: { log: ReturnType<typeof useAccessLog>, none: string }) {
  const { t, i18n } = useTranslation()
  const list = useRef<HTMLUListElement>(null)
  const firstNew = useRef<number | undefined>(undefined)
  const records = log.data?.pages.flat() ?? []
  const { titles } = useOwnRequestTitles(records.some((record) => typeof record.request_id === 'number'))
  useEffect(() => {
    if (firstNew.current === undefined || records.length <= firstNew.current) return
    list.current?.querySelectorAll<HTMLElement>('h2')[firstNew.current]?.focus()
    firstNew.current = undefined
  }, [records.length])
  if (log.isPending) return <p>{t('common.loading')}</p>
  if (log.isError) return <p className='error-text' role='alert'>{serverProblem(log.error, t, []).message}</p>
  if (records.length === 0) return <p>{none}</p>
  return (
    <>
      <ul className='cards' ref={list}>
        {records.map((record, index) => (
          <li key={`${record.viewer_id}-${record.at}-${index}`} className='card'>
            <h2 tabIndex={-1}>{record.viewer_name}</h2>
            <dl className='facts'>
              <div><dt>{t('accessLog.role')}</dt><dd>{t(`accessLog.roles.${record.viewer_role.replaceAll(' ', '_')}`, { defaultValue: record.viewer_role })}</dd></div>
              <div><dt>{t('accessLog.fields')}</dt><dd>{record.fields.map((field) => t(`accessLog.fieldNames.${field}`, { defaultValue: field })).join(', ')}</dd></div>
              <div><dt>{t('accessLog.when')}</dt><dd>{formatDate(record.at, i18n.language)}</dd></div>
              {typeof record.request_id === 'number' ? <div><dt>{t('accessLog.through')}</dt><dd><Link href={`/requests/${record.request_id}`}>{titles.get(record.request_id) ?? t('accessLog.someRequest', { id: record.request_id })}</Link></dd></div> : null}
            </dl>
          </li>
        ))}
      </ul>
      {log.hasNextPage
        ? (
          <p>
            <Button className='button secondary' onPress={() => { if (!log.isFetchingNextPage) { firstNew.current = records.length; void log.fetchNextPage() } }}>
              {t('accessLog.more')}
            </Button>
          </p>
          )
        : null}
    </>
  )
}

/** "Who has seen your details" of one request: for its requester (moderators and admins may read it through the API). */
export function RequestAccessLogPage () {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const valid = Number.isSafeInteger(id) && id > 0
  const request = useRequest(id)
  const log = useAccessLog(['get', '/api/v1/requests/{id}/access-log', id], async (offset, signal) =>
    await unwrap(api.GET('/api/v1/requests/{id}/access-log', { params: { path: { id }, query: { limit: String(PAGE_SIZE), offset: String(offset) } }, signal })), valid)
  const notFound = !valid || (log.isError && log.error instanceof ApiError && log.error.status === 404)
  if (notFound) return <Page title={t('request.notFound')}><p>{t('request.notFoundText')}</p></Page>
  return (
    <Page title={t('accessLog.requestTitle')}>
      {request.data !== undefined ? <p>{t('accessLog.forRequest', { title: request.data.title })}</p> : null}
      <p>{t('accessLog.requestIntro')}</p>
      <p className='hint'>{t('accessLog.again')}</p>
      <Records log={log} none={t('accessLog.noneRequest')} />
      <p><Link href={`/requests/${id}`}>{t('accessLog.backRequest')}</Link></p>
    </Page>
  )
}

/** "Who has seen your profile details": the phone and address of the signed-in person's profile. */
export function ProfileAccessLogPage () {
  const { t } = useTranslation()
  const log = useAccessLog(['get', '/api/v1/users/me/access-log'], async (offset, signal) =>
    await unwrap(api.GET('/api/v1/users/me/access-log', { params: { query: { limit: String(PAGE_SIZE), offset: String(offset) } }, signal })))
  return (
    <Page title={t('accessLog.profileTitle')}>
      <p>{t('accessLog.profileIntro')}</p>
      <p className='hint'>{t('accessLog.again')}</p>
      <Records log={log} none={t('accessLog.noneProfile')} />
      <p><Link href='/profile'>{t('accessLog.backProfile')}</Link></p>
    </Page>
  )
}
