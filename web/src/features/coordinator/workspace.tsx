import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { Button, Form, Input, Label, Link, SearchField, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useLocation, useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { CLIENTS_KEY, type Client } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import '../../components/journeys.css'
import './coordinator.css'

/** The coordinator's pages, as a small navigation that marks the current one (as the moderation pages do). */
export function CoordinatorPages () {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const pages = [['/clients', t('coordinator.find.title')], ['/clients/requests', t('coordinator.requests.title')], ['/clients/texts', t('texts.title')]] as const
  return (
    <nav aria-label={t('coordinator.pagesLabel')}>
      <ul className='actions'>
        {pages.map(([href, label]) => (
          <li key={href}><Link href={href} aria-current={pathname === href ? 'page' : undefined}>{label}</Link></li>
        ))}
      </ul>
    </nav>
  )
}

/** A typed search that is a phone number (digits, spaces, +, -, /, brackets) rather than a name. */
export const looksLikePhone = (text: string): boolean => /^[+(]?[\d\s()/-]{3,}$/.test(text.trim())

/** Where "Add a new client" starts: the name or number already typed into the search, so nothing is typed twice. */
function addHref (q: string): string {
  const query = q.trim()
  return query === '' ? '/clients/new' : `/clients/new?${new URLSearchParams({ [looksLikePhone(query) ? 'phone' : 'name']: query }).toString()}`
}

/** One client found: the name (to their page), what identifies them on the phone, and asking for help for them. */
function ClientCard ({ client }: { client: Client }) {
  const { t } = useTranslation()
  const name = `${client.first_name} ${client.last_name}`
  return (
    <li className='card'>
      <h3><Link href={`/clients/${client.id}`}>{name}</Link></h3>
      <dl className='facts'>
        <div><dt>{t('coordinator.client.phone')}</dt><dd>{client.phone ?? t('coordinator.client.none')}</dd></div>
        <div><dt>{t('coordinator.client.address')}</dt><dd>{[client.address, client.city].filter(Boolean).join(', ') || t('coordinator.client.none')}</dd></div>
        {client.needs !== null && client.needs !== '' ? <div><dt>{t('coordinator.client.needs')}</dt><dd>{client.needs}</dd></div> : null}
      </dl>
      <p><Link href={`/clients/${client.id}/ask`} className='button'>{t('coordinator.client.ask', { name: client.first_name })}<span className='visually-hidden'> {client.last_name}</span></Link></p>
    </li>
  )
}

/**
 * "Find or add a client": one field for a name or a phone number, for a coordinator on the phone (docs/web/on-behalf.md).
 * The search lives in the address (?q=), so a reload and Back keep it; it runs when submitted, and the result is
 * announced. Without a search the clients changed most recently are listed.
 */
export function ClientsPage () {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const [typed, setTyped] = useState(q)
  const found = useQuery({
    queryKey: [...CLIENTS_KEY, q],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/clients', { params: { query: { q, limit: '20' } }, signal })),
  })
  const count = found.data?.length
  useEffect(() => {
    if (q === '' || count === undefined) return
    announce(count === 0 ? t('coordinator.find.none', { q }) : t('coordinator.find.found', { count, q }))
  }, [q, count, announce, t])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setParams(typed.trim() === '' ? {} : { q: typed.trim() })
  }
  return (
    <Page title={t('coordinator.find.title')}>
      <CoordinatorPages />
      {/* The button stands outside the SearchField, whose own Button slot is its "clear" button (Escape clears too). */}
      <Form role='search' onSubmit={submit} className='client-search'>
        <SearchField className='field' name='q' value={typed} onChange={setTyped} onClear={() => setParams({})}>
          <Label>{t('coordinator.find.label')}</Label>
          <Text slot='description' className='hint'>{t('coordinator.find.hint')}</Text>
          <Input inputMode='search' autoComplete='off' />
        </SearchField>
        <Button type='submit' className='button'>{t('coordinator.find.search')}</Button>
      </Form>
      <p><Link href={addHref(q)} className='button secondary'>{t('coordinator.find.add')}</Link></p>
      <section aria-labelledby='clients-heading'>
        <h2 id='clients-heading'>{q === '' ? t('coordinator.find.recent') : t('coordinator.find.results', { q })}</h2>
        {found.isPending
          ? <p>{t('common.loading')}</p>
          : found.isError
            ? <p className='error-text' role='alert'>{serverProblem(found.error, t).message}</p>
            : found.data.length === 0
              ? <p>{q === '' ? t('coordinator.find.noneYet') : t('coordinator.find.none', { q })}</p>
              : (
                <>
                  {q !== '' ? <p>{t('coordinator.find.found', { count: found.data.length, q })}</p> : null}
                  <ul className='cards'>{found.data.map((client) => <ClientCard key={client.id} client={client} />)}</ul>
                </>
                )}
      </section>
    </Page>
  )
}
