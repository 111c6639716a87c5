import { useMutation } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { CSRF_HEADERS, startSession } from '../../api/session'
import { useAnnounce } from '../../components/announcer'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'

const FIELDS = ['email', 'password'] as const

/** Where to go after signing in: only a path of this app, never another site. */
export function safeNext (next: string | null): string {
  return next !== null && next.startsWith('/') && !next.startsWith('//') ? next : '/'
}

export function SignInPage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const next = params.get('next')
  const announce = useAnnounce()
  const form = useFormProblems(FIELDS)
  const signIn = useMutation({
    mutationFn: (body: { email: string, password: string }) => unwrap(api.POST('/api/v1/session', { body, params: { header: CSRF_HEADERS } })),
    onSuccess: (answer) => {
      startSession(answer)
      // Spoken only: the page it leads to shows it (the greeting, "Signed in as"), so no banner (docs/web.md).
      announce(t('account.signedIn', { name: answer.user.first_name }))
      void navigate(safeNext(next))
    },
    onError: form.fail,
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (signIn.isPending) return
    const data = new FormData(event.currentTarget)
    const email = String(data.get('email') ?? '').trim()
    const password = String(data.get('password') ?? '')
    const problems: Problem[] = []
    if (email === '') problems.push({ field: 'email', message: t('errors.emailRequired') })
    if (password === '') problems.push({ field: 'password', message: t('errors.passwordRequired') })
    if (problems.length > 0) return form.show(problems)
    form.clear()
    signIn.mutate({ email, password })
  }

  return (
    <Page title={t('account.signInTitle')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <TextInput name='email' type='email' label={t('account.email')} autoComplete='email' />
        <TextInput name='password' type='password' label={t('account.password')} autoComplete='current-password' />
        <Button type='submit' className='button'>{t('account.signIn')}</Button>
      </Form>
      {/* Getting back in without the password (docs/web/messaging.md; WCAG 2.2 3.3.8): `next` is kept for the code's way. */}
      <p><Link href='/forgot-password'>{t('account.forgotPassword')}</Link></p>
      <p><Link href={`/sign-in/with-code${next !== null ? `?next=${encodeURIComponent(next)}` : ''}`}>{t('account.withCode')}</Link></p>
    </Page>
  )
}
