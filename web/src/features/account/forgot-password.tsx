import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate } from 'react-router'
import { ApiError } from '../../api/errors'
import { startSession } from '../../api/session'
import { useAnnounce } from '../../components/announcer'
import { QuestionPage, QuestionText } from '../../components/question-page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { askResetCode, confirmReset } from './codes-api'
import { CodeStep, EmailStep, forget, remember, remembered } from './code-steps'

/**
 * "Forgot your password?" (docs/api/accounts.md › Getting back in and docs/web/accounts.md), one question a page: the address, the code from the e-mail
 * (`/forgot-password/code#email=…&code=…` from its link), a new password, then signed in on the start page.
 * The code is checked only with the new password (the API takes them together), so a wrong code is reported on
 * the last page, with the way back to the code and a way to get a new one.
 */
const START = '/forgot-password'
const CODE = '/forgot-password/code'
const NEW_PASSWORD = '/forgot-password/new-password'

export function ForgotPasswordPage () {
  const { t } = useTranslation()
  return <EmailStep journey='reset' title={t('reset.title')} back='/sign-in' next={CODE} ask={askResetCode} />
}

export function ResetCodePage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const onCode = async (_email: string, code: string) => {
    remember('reset', { code })
    await navigate(NEW_PASSWORD)
  }
  return <CodeStep journey='reset' title={t('reset.title')} back={START} ask={askResetCode} onCode={onCode} />
}

export function NewPasswordPage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const announce = useAnnounce()
  const form = useFormProblems(['password'])
  const [password, setPassword] = useState('')
  const [codeFailed, setCodeFailed] = useState(false)
  const { email, code } = remembered('reset')
  const save = useMutation({
    mutationFn: confirmReset,
    onSuccess: (answer) => {
      forget('reset')
      startSession(answer)
      success(t('reset.done'), '/')
      void navigate('/')
    },
    onError: (error) => {
      // A wrong, used or expired code: the code is the thing to change, not the password.
      const wrongCode = error instanceof ApiError && error.text === 'invalid or expired code'
      setCodeFailed(wrongCode)
      form.fail(error)
    },
  })
  const resend = useMutation({
    mutationFn: async () => { await askResetCode(email ?? '') },
    onSuccess: () => {
      announce(t('codes.resent', { email }))
      void navigate(CODE)
    },
    onError: form.fail,
  })
  if (email === undefined) return <Navigate to={START} replace />
  if (code === undefined) return <Navigate to={CODE} replace />
  const question = t('reset.newPassword')
  const onContinue = () => {
    if (password.length < 8) return form.show([{ field: 'password', message: t(password === '' ? 'reset.errors.passwordRequired' : 'errors.passwordShort') }])
    if (password.length > 128) return form.show([{ field: 'password', message: t('errors.passwordLong') }])
    form.clear()
    if (!save.isPending) save.mutate({ email, code, new_password: password })
  }
  return (
    <>
      <QuestionPage journey={t('reset.title')} question={question} back={CODE} form={form} onContinue={onContinue} continueLabel={t('reset.save')}>
        <QuestionText name='password' type='password' label={question} hint={t('reset.passwordHint')} autoComplete='new-password' value={password} onChange={setPassword} />
      </QuestionPage>
      {codeFailed
        ? (
          <section aria-labelledby='code-failed-heading' className='ask-step'>
            <h2 id='code-failed-heading'>{t('reset.codeFailedHeading')}</h2>
            <p>{t('reset.codeFailedText')}</p>
            <p><Link href={CODE}>{t('reset.enterCodeAgain')}</Link></p>
            <p><Button className='button secondary' onPress={() => { if (!resend.isPending) resend.mutate() }}>{t('codes.sendNew')}</Button></p>
          </section>
          )
        : null}
    </>
  )
}
