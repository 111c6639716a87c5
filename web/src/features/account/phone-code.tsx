import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate } from 'react-router'
import { OWN_PHONE_KEY, TEXTS_SECTION, useOwnPhone, type OwnPhone } from '../../api/phone'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { CodeEntry, type CodeWords } from './code-steps'
import { confirmPhoneCode, sendPhoneCode } from './codes-api'
import { textsState } from './phone-texts'

/**
 * "Check your phone" (/profile/phone-code), after "Get texts on this phone" on the profile: the 6 digits of the code
 * texted to the profile's phone, one question on its page as the e-mailed codes' pages (code-steps.tsx), with "Send a
 * new code". The service knows which code went where, so nothing is kept between the pages and a reload still works.
 * Confirmed, it returns to the profile with a banner. Opened when there is nothing to confirm (no number, stopped,
 * confirmed already), it goes to the profile's texts section, which says why.
 */
export function PhoneCodePage () {
  const { t } = useTranslation()
  const phone = useOwnPhone()
  // Once confirmed, the page leaves for the profile itself (with its banner), not for the texts section.
  const [confirmed, setConfirmed] = useState(false)
  if (phone.isPending) return <p>{t('common.loading')}</p>
  if (phone.isError) {
    return <Page title={t('phoneTexts.code.heading')} hasErrors><p className='error-text' role='alert'>{serverProblem(phone.error, t).message}</p></Page>
  }
  if (!confirmed && textsState(phone.data) !== 'unconfirmed') return <Navigate to={`/profile#${TEXTS_SECTION}`} replace />
  return <PhoneCode phone={phone.data.phone ?? ''} onConfirmed={() => { setConfirmed(true) }} />
}

function PhoneCode ({ phone, onConfirmed }: { phone: string, onConfirmed: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const client = useQueryClient()
  const success = useSuccess()
  const words: CodeWords = {
    heading: t('phoneTexts.code.heading'),
    sent: t('phoneTexts.code.sent', { phone }),
    resent: t('phoneTexts.code.resent', { phone }),
    hint: t('phoneTexts.code.hint'),
    codeRequired: t('phoneTexts.code.required'),
    noCodeHeading: t('phoneTexts.code.noCodeHeading'),
    noCodeText: t('phoneTexts.code.noCodeText', { phone }),
    other: { href: '/profile', label: t('phoneTexts.changePhone') },
  }
  const onCode = async (code: string) => {
    // A refusal (a wrong code, a STOP reply meanwhile) throws: said in the summary, linked to the field. The profile,
    // on coming back, reads the phone again.
    await confirmPhoneCode(code)
    onConfirmed()
    client.setQueryData<OwnPhone>(OWN_PHONE_KEY, (old) => old === undefined ? old : { ...old, verified: true, can_receive_texts: true })
    success(t('phoneTexts.code.done'), '/profile')
    await navigate('/profile')
    void client.invalidateQueries({ queryKey: OWN_PHONE_KEY })
  }
  return (
    <CodeEntry
      title={t('phoneTexts.title')} back={`/profile#${TEXTS_SECTION}`} words={words} continueLabel={t('phoneTexts.code.confirm')}
      ask={sendPhoneCode} onCode={onCode}
    />
  )
}
