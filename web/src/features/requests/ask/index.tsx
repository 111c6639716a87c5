import { useContext, useEffect, useMemo } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, Route, Routes, useParams, useSearchParams } from 'react-router'
import { useActingFor } from '../../../api/acting-for'
import { useClient } from '../../../api/clients'
import { ApiError } from '../../../api/errors'
import { useSession } from '../../../api/use-session'
import { Page } from '../../../components/page'
import { serverProblem } from '../../../i18n/server-errors'
import { AnswersContext, AskingForContext, useAnswersStore, type AskingFor } from './answers'
import { CheckStep } from './check'
import { AddressStep, CoordinatesStep, MapStep, WhereStep } from './place'
import { DatesStep, DaysStep, OftenStep, ReturnStep, TimesStep } from './regular'
import { ContactStep, DescriptionStep, KindStep, TitleStep, UrgencyStep } from './questions'
import { AtStep, ByStep, WhenStep } from './when'
import '../../../components/question-page.css'

/**
 * "Ask for help", one question a page (GOV.UK's question pages), each at its own address so the
 * browser's Back works, then "Check your answers" and Send. docs/web/help.md › Asking for help.
 */
export function AskPage () {
  const { user } = useSession()
  return <AskPages key={user?.id} userId={user?.id} />
}

/**
 * "Ask for help" for a coordinator's client (docs/api/on-behalf.md › Coordinators and clients), the same questions at /clients/:id/ask: the client's
 * home, address and phone are the defaults, and the request or regular help (docs/api/on-behalf.md › Series for
 * someone) is sent with `on_behalf_of`. docs/web/on-behalf.md › Coordinators.
 */
export function ClientAskPage () {
  const { t } = useTranslation()
  const { user } = useSession()
  const id = Number(useParams().id)
  const client = useClient(id)
  const asking = useMemo<AskingFor | undefined>(() => client.data !== undefined ? { base: `/clients/${id}/ask`, leave: `/clients/${id}`, client: client.data } : undefined, [client.data, id])
  if (client.error instanceof ApiError && client.error.status === 404) {
    return <Page title={t('coordinator.client.notFound')}><p><Link href='/clients'>{t('coordinator.client.back')}</Link></p></Page>
  }
  if (client.isError) return <Page title={t('ask.title')}><p className='error-text' role='alert'>{serverProblem(client.error, t).message}</p></Page>
  // No h1 while loading: the focus after navigation waits for the page's own.
  if (asking === undefined) return <p>{t('common.loading')}</p>
  return (
    <AskingForContext.Provider value={asking}>
      <AskPages key={`${user?.id ?? ''}:${id}`} userId={user?.id} clientId={id} />
    </AskingForContext.Provider>
  )
}

/** Keyed by the person (and the client), so answers never pass from one account or client to the next on the same tab. */
function AskPages ({ userId, clientId }: { userId: number | undefined, clientId?: number }) {
  const store = useAnswersStore(clientId === undefined ? userId : `${userId ?? 'none'}:client:${clientId}`)
  return (
    <AnswersContext.Provider value={store}>
      <Routes>
        <Route index element={<StartStep />} />
        <Route path='kind' element={<KindStep />} />
        <Route path='title' element={<TitleStep />} />
        <Route path='description' element={<DescriptionStep />} />
        <Route path='where' element={<WhereStep />} />
        <Route path='map' element={<MapStep />} />
        <Route path='coordinates' element={<CoordinatesStep />} />
        <Route path='address' element={<AddressStep />} />
        <Route path='often' element={<OftenStep />} />
        <Route path='when' element={<WhenStep />} />
        <Route path='at' element={<AtStep />} />
        <Route path='by' element={<ByStep />} />
        <Route path='days' element={<DaysStep />} />
        <Route path='times' element={<TimesStep />} />
        <Route path='return' element={<ReturnStep />} />
        <Route path='dates' element={<DatesStep />} />
        <Route path='urgency' element={<UrgencyStep />} />
        <Route path='contact' element={<ContactStep />} />
        <Route path='check' element={<CheckStep />} />
        <Route path='*' element={<Navigate to='kind' replace />} />
      </Routes>
    </AnswersContext.Provider>
  )
}

/**
 * `/ask` starts asking for oneself; `/ask?for=<user id>` (from "People I help") asks for that person, when they
 * made the signed-in person their carer with `create` (docs/api/on-behalf.md › Carers). Answers meant for someone else are not
 * carried over into a request for oneself, nor the other way round. `?regular` ("Set up regular help for Erna")
 * answers "How often" with regularly; the question is still asked, so it can be changed.
 */
function StartStep () {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const { answers, update, clear } = useContext(AnswersContext)
  const forUser = search.has('for') ? Number(search.get('for')) : undefined
  const regular = search.has('regular')
  const actingFor = useActingFor()
  const person = forUser === undefined ? undefined : actingFor.data?.find((item) => item.user_id === forUser && item.status === 'accepted' && item.can.includes('create'))
  const forWhom = forUser === undefined ? answers.forUser === undefined : answers.forUser === forUser && person !== undefined
  const ready = forWhom && (!regular || answers.often === 'regular')
  useEffect(() => {
    if (forUser === undefined) {
      if (answers.forUser !== undefined) clear()
      else if (regular && answers.often !== 'regular') update({ often: 'regular' })
    } else if (person !== undefined && (answers.forUser !== forUser || (regular && answers.often !== 'regular'))) {
      if (answers.forUser !== forUser) clear()
      update({ forUser, forName: person.name, ...(regular ? { often: 'regular' as const } : {}) })
    }
  }, [forUser, person, answers.forUser, answers.often, regular, clear, update])
  if (ready) return <Navigate to='kind' replace />
  if (forUser !== undefined && !actingFor.isPending && person === undefined) {
    return (
      <Page title={t('carers.person.cannotAsk')}>
        <p>{t('carers.person.stoppedText')}</p>
        <p><Link href='/people-i-help'>{t('carers.person.backToList')}</Link></p>
      </Page>
    )
  }
  return <p>{t('common.loading')}</p>
}
