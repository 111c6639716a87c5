import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type ComponentType } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import type { paths } from '../../api/schema'
import { useSession } from '../../api/use-session'
import { useAnnounce } from '../../components/announcer'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import '../../components/journeys.css'

export const TEXTS_KEY = ['get', '/api/v1/sms/inbox'] as const

/** An item of GET /sms/inbox: a text the service did not understand, from a person or a client (docs/api/messaging.md › Texts › The inbox). */
type InboxText = paths['/api/v1/sms/inbox']['get']['responses'][200]['content']['application/json'][number]

const headingIdOf = (id: number) => `text-${id}`

/** A text's first words, which tell apart two texts one person sent within a minute in the names of their buttons. */
const excerpt = (text: string): string => {
  const characters = [...text.replace(/\s+/g, ' ').trim()]
  return characters.length <= 40 ? characters.join('') : `${characters.slice(0, 40).join('').trimEnd()}…`
}

/** One text: who sent it and when (its heading), the request it was about, who dealt with it, the words, and "Mark as dealt with" while nobody has. */
function TextCard ({ item, onMark, problem }: { item: InboxText, onMark?: (item: InboxText) => void, problem: string | undefined }) {
  const { t, i18n } = useTranslation()
  const me = useSession().user
  const heading = t('texts.heading', { from: item.from, when: formatDate(item.received_at, i18n.language) })
  return (
    <li>
      <article className='card' aria-labelledby={headingIdOf(item.id)}>
        <h3 id={headingIdOf(item.id)} tabIndex={-1}>{heading}</h3>
        {item.request_id !== null || item.handled_by !== null
          ? (
            <dl className='facts'>
              {item.request_id !== null
                ? <div><dt>{t('texts.request')}</dt><dd><Link href={`/requests/${item.request_id}`}>{t('texts.requestNumber', { id: item.request_id })}</Link></dd></div>
                : null}
              {item.handled_by !== null
                ? <div><dt>{t('texts.dealtBy')}</dt><dd>{item.handled_by === me?.id ? t('texts.byYou') : t('texts.bySomeone')}</dd></div>
                : null}
            </dl>
            )
          : null}
        <h4 className='small-heading'>{t('texts.text')}</h4>
        <p className='pre-line'>{item.text}</p>
        {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
        {onMark !== undefined
          ? <Button className='button' aria-label={t('texts.markDealtNamed', { heading, words: excerpt(item.text) })} onPress={() => onMark(item)}>{t('texts.markDealt')}</Button>
          : null}
      </article>
    </li>
  )
}

/**
 * The texts inbox (docs/web/messaging.md › The texts inbox): the texts still to deal with, newest first, each with
 * "Mark as dealt with", and below them those dealt with. Coordinators reach it among their pages, moderators among
 * theirs (`Pages`, handed in by app.tsx); the API decides which texts each sees. Once marked, a text moves down to
 * the dealt-with ones, the banner says so, and focus moves to the text that now stands in its place, or to the
 * list's heading when none is left, as the moderation queues do.
 */
export function TextsInboxPage ({ Pages }: { Pages: ComponentType }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const success = useSuccess()
  const announce = useAnnounce()
  const texts = useQuery({ queryKey: TEXTS_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/sms/inbox', { params: { query: { limit: '100' } }, signal })) })
  const [problem, setProblem] = useState<{ id: number, message: string } | undefined>(undefined)
  const listHeading = useRef<HTMLHeadingElement>(null)
  const focusAfter = useRef<number | 'heading' | undefined>(undefined)
  const open = texts.data?.filter((item) => item.handled_by === null) ?? []
  const dealt = texts.data?.filter((item) => item.handled_by !== null) ?? []

  useEffect(() => {
    if (focusAfter.current === undefined) return
    const target = focusAfter.current === 'heading' ? listHeading.current : document.getElementById(headingIdOf(focusAfter.current))
    focusAfter.current = undefined
    target?.focus()
  }, [texts.data])

  const mark = useMutation({
    mutationFn: (item: InboxText) => unwrap(api.POST('/api/v1/sms/inbox/{id}/handled', { params: { path: { id: item.id } } })),
    onSuccess: (marked, item) => {
      const index = open.findIndex((other) => other.id === item.id)
      const rest = open.filter((other) => other.id !== item.id)
      focusAfter.current = rest[Math.min(index, rest.length - 1)]?.id ?? 'heading'
      client.setQueryData<InboxText[]>(TEXTS_KEY, (before) => before?.map((other) => other.id === marked.id ? marked : other))
      setProblem(undefined)
      success(t('texts.marked', { from: item.from }))
    },
    onError: (error, item) => {
      const message = serverProblem(error, t).message
      setProblem({ id: item.id, message })
      announce(message)
    },
  })
  const onMark = (item: InboxText) => { if (!mark.isPending) mark.mutate(item) }
  const problemOf = (item: InboxText) => problem?.id === item.id ? problem.message : undefined

  return (
    <Page title={t('texts.title')}>
      <Pages />
      <p>{t('texts.intro')}</p>
      <h2 ref={listHeading} tabIndex={-1}>{texts.isSuccess ? t('texts.toDeal', { count: open.length }) : t('texts.title')}</h2>
      {texts.isPending
        ? <p>{t('common.loading')}</p>
        : texts.isError
          ? <p className='error-text'>{serverProblem(texts.error, t).message} <Button className='link-button' onPress={() => { void texts.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : (
            <>
              {open.length === 0
                ? <p>{t('texts.none')}</p>
                : <ul className='cards'>{open.map((item) => <TextCard key={item.id} item={item} onMark={onMark} problem={problemOf(item)} />)}</ul>}
              {dealt.length > 0
                ? (
                  <section aria-labelledby='texts-dealt'>
                    <h2 id='texts-dealt'>{t('texts.dealtHeading')}</h2>
                    <ul className='cards'>{dealt.map((item) => <TextCard key={item.id} item={item} problem={undefined} />)}</ul>
                  </section>
                  )
                : null}
            </>
            )}
    </Page>
  )
}
