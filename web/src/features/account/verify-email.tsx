import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useSession } from '../../api/use-session'
import { useAnnounce } from '../../components/announcer'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { QuestionPage } from '../../components/question-page'
import { SuccessBanner, useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'
import { codeProblem, normaliseCode, resendVerification, verifyEmail } from './codes-api'
import { forget, remembered, useLinkFragment } from './code-steps'

const ME = ['get', '/api/v1/users/me'] as const

/**
 * "Confirm your email address" under EMAIL_VERIFICATION=code (docs/api/accounts.md › Getting back in): the code typed or from the e-mail's
 * link (`/verify-email#code=…`), and a way to send a new one. Opened signed out (the link on another device),
 * it keeps the link's code in memory while the person signs in, and comes back filled in.
 */
export function VerifyEmailPage () {
  const { status } = useSession()
  const { t } = useTranslation()
  const fragment = useLinkFragment('verify')
  if (status === 'unknown') return <p>{t('common.loading')}</p>
  if (status === 'signed-out') return <Navigate to={`/sign-in?next=${encodeURIComponent('/verify-email')}`} replace />
  return <VerifyEmail linkCode={fragment.code} />
}

function VerifyEmail ({ linkCode }: { linkCode: string | undefined }) {
  const { t } = useTranslation()
  const me = useQuery({ queryKey: ME, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me', { signal })) })
  if (me.isPending) return <p>{t('common.loading')}</p>
  if (me.isError) return <Page title={t('verify.title')} hasErrors><p className='error-text' role='alert'>{serverProblem(me.error, t).message}</p></Page>
  if (me.data.email_verified) {
    return (
      <Page title={t('verify.title')}>
        <p>{t('verify.already', { email: me.data.email })}</p>
        <p><Link href='/profile'>{t('verify.toProfile')}</Link></p>
      </Page>
    )
  }
  return <CodeForm email={me.data.email ?? ''} linkCode={linkCode} />
}

function CodeForm ({ email, linkCode }: { email: string, linkCode: string | undefined }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const client = useQueryClient()
  const success = useSuccess()
  const announce = useAnnounce()
  const form = useFormProblems(['code'])
  const [code, setCode] = useState(linkCode ?? remembered('verify').code ?? '')
  const confirm = useMutation({
    mutationFn: verifyEmail,
    onSuccess: async () => {
      forget('verify')
      await client.invalidateQueries({ queryKey: ME })
      success(t('verify.done'), '/profile')
      void navigate('/profile')
    },
    onError: form.fail,
  })
  const resend = useMutation({
    mutationFn: resendVerification,
    onSuccess: () => {
      setCode('')
      announce(t('codes.resent', { email }))
    },
    onError: form.fail,
  })
  const title = t('verify.title')
  const onContinue = () => {
    const typed = normaliseCode(code)
    const problem = codeProblem(typed)
    if (problem !== undefined) return form.show([{ field: 'code', message: t(problem) }])
    form.clear()
    setCode(typed)
    if (!confirm.isPending) confirm.mutate(typed)
  }
  return (
    <>
      {/* The page right after registering, when a code was sent: "your account is ready" belongs above it. */}
      <SuccessBanner />
      <QuestionPage journey={t('profile.title')} question={title} back='/profile' form={form} onContinue={onContinue} continueLabel={t('verify.confirm')}>
        <h1 tabIndex={-1}>{title}</h1>
        <p>{resend.isSuccess ? t('codes.resent', { email }) : t('verify.intro', { email })}</p>
        <TextInput name='code' label={t('codes.code')} hint={t('codes.codeHint')} inputMode='numeric' autoComplete='one-time-code' value={code} onChange={setCode} maxLength={20} />
      </QuestionPage>
      <section aria-labelledby='no-code-heading' className='ask-step'>
        <h2 id='no-code-heading'>{t('codes.noCodeHeading')}</h2>
        <p>{t('codes.noCodeText')}</p>
        <p><Button className='button secondary' onPress={() => { if (!resend.isPending) resend.mutate() }}>{t('codes.sendNew')}</Button></p>
      </section>
    </>
  )
}
