import { Navigate, Route, Routes } from 'react-router'
import { useSession } from '../../../api/use-session'
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
        <Route index element={<Navigate to='kind' replace />} />
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
