import { useContext, useEffect } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, Route, Routes, useSearchParams } from 'react-router'
import { useActingFor } from '../../../api/acting-for'
import { useSession } from '../../../api/use-session'
import { Page } from '../../../components/page'
import { AnswersContext, useAnswersStore } from './answers'
import { CheckStep } from './check'
import { AddressStep, CoordinatesStep, MapStep, WhereStep } from './place'
import { DatesStep, DaysStep, OftenStep, ReturnStep, TimesStep } from './regular'
import { ContactStep, DescriptionStep, KindStep, TitleStep, UrgencyStep, WhenStep } from './questions'
import '../../../components/question-page.css'

/**
 * "Ask for help", one question a page (GOV.UK's question pages), each at its own address so the
 * browser's Back works, then "Check your answers" and Send. docs/web.md › Asking for help.
 */
export function AskPage () {
  const { user } = useSession()
  return <AskPages key={user?.id} userId={user?.id} />
}

/** Keyed by the person, so answers never pass from one account to the next on the same tab. */
function AskPages ({ userId }: { userId: number | undefined }) {
  const store = useAnswersStore(userId)
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
 * made the signed-in person their carer with `create` (behalf.md § 2). Answers meant for someone else are not
 * carried over into a request for oneself, nor the other way round.
 */
function StartStep () {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const { answers, update, clear } = useContext(AnswersContext)
  const forUser = search.has('for') ? Number(search.get('for')) : undefined
  const actingFor = useActingFor()
  const person = forUser === undefined ? undefined : actingFor.data?.find((item) => item.user_id === forUser && item.status === 'accepted' && item.can.includes('create'))
  const ready = forUser === undefined ? answers.forUser === undefined : answers.forUser === forUser && person !== undefined
  useEffect(() => {
    if (forUser === undefined) {
      if (answers.forUser !== undefined) clear()
    } else if (person !== undefined && answers.forUser !== forUser) {
      clear()
      update({ forUser, forName: person.name })
    }
  }, [forUser, person, answers.forUser, clear, update])
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
