import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { OWN_PHONE_KEY, phoneState, TEXTS_SECTION, useOwnPhone, type OwnPhone } from '../../api/phone'
import { ErrorSummary, fieldId, focusField } from '../../components/error-summary'
import { useSectionTarget } from '../../components/section-target'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'
import { takesTexts } from '../../lib/phone'
import { sendPhoneCode } from './codes-api'

/** Where the code texted to the phone is typed in (phone-code.tsx). */
export const PHONE_CODE_PATH = '/profile/phone-code'

/**
 * What the profile's phone can do for texts, in the words of the profile and of the code page: no number, a number
 * that is not mobile (the phone library decides as the service does), stopped by a STOP reply, not confirmed, ready.
 */
export type TextsState = 'none' | 'notMobile' | 'stopped' | 'unconfirmed' | 'ready'

export function textsState (phone: OwnPhone): TextsState {
  const state = phoneState(phone)
  return state === 'unconfirmed' && !takesTexts(phone.phone ?? '') ? 'notMobile' : state
}

/** A link to the profile's phone field, as the error summary's links are (focus on the field, its label in view). */
function ToPhoneField ({ label }: { label: string }) {
  return <p><a href={`/profile#${fieldId('phone')}`} onClick={(event) => { focusField(event, 'phone') }}>{label}</a></p>
}

/**
 * "Texts to your phone" on the profile (docs/web/accounts.md › Texts to your phone): where the profile's phone stands
 * for texts, in words, and the one thing to do next; "Get texts on this phone" texts a code to it and leads to the page
 * that takes it (a refusal is said in the section's error summary, above its heading, as each form's of the profile is).
 * The notification settings link here (`/profile#texts`) while texts cannot go.
 */
export function PhoneTexts () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const phone = useOwnPhone()
  const client = useQueryClient()
  const form = useFormProblems([])
  const send = useMutation({
    mutationFn: sendPhoneCode,
    onSuccess: () => { void navigate(PHONE_CODE_PATH) },
    // A refusal may say the number changed meanwhile (a STOP reply, another tab): the section reads it again.
    onError: (error) => {
      form.fail(error)
      void client.invalidateQueries({ queryKey: OWN_PHONE_KEY })
    },
  })
  useSectionTarget(TEXTS_SECTION, phone.data !== undefined)
  const number = phone.data?.phone ?? ''
  const words = (state: TextsState) => {
    switch (state) {
      case 'none': return <><p>{t('phoneTexts.none')}</p><ToPhoneField label={t('phoneTexts.addPhone')} /></>
      case 'notMobile': return <><p>{t('phoneTexts.notMobile', { phone: number })}</p><ToPhoneField label={t('phoneTexts.changePhone')} /></>
      case 'stopped': return <p>{t('phoneTexts.stopped')} {t('phoneTexts.startAgain')}</p>
      case 'unconfirmed': return (
        <>
          <p>{t('phoneTexts.unconfirmed', { phone: number })}</p>
          <p><Button className='button' onPress={() => { if (!send.isPending) send.mutate() }}>{t('phoneTexts.get')}</Button></p>
        </>
      )
      case 'ready': return (
        <>
          <p>{t('phoneTexts.ready', { phone: number })}</p>
          <p><Link href={`/settings/notifications#${TEXTS_SECTION}`}>{t('phoneTexts.choose')}</Link></p>
          <p className='hint'>{t('phoneTexts.changeNote')}</p>
        </>
      )
    }
  }
  return (
    <section aria-labelledby={`${TEXTS_SECTION}-heading`}>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <h2 id={`${TEXTS_SECTION}-heading`} tabIndex={-1} className='section-target'>{t('phoneTexts.title')}</h2>
      {phone.isPending
        ? <p>{t('common.loading')}</p>
        : phone.isError
          ? <p className='error-text'>{serverProblem(phone.error, t).message}</p>
          : words(textsState(phone.data))}
    </section>
  )
}
