import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { Button, Form } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { CSRF_HEADERS, startSession } from '../../api/session'
import { useSuccess } from '../../components/success-banner'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'
import { fetchAccountSettings, useAccountSettings } from '../../api/account-settings'
import { readPhone } from '../../lib/phone'

const FIELDS = ['first_name', 'last_name', 'email', 'password', 'phone'] as const
type RegisterBody = { email: string, password: string, first_name: string, last_name: string, phone?: string, locale: 'en' | 'de' }

export function RegisterPage () {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const client = useQueryClient()
  const success = useSuccess()
  const form = useFormProblems(FIELDS)
  const country = useAccountSettings().data?.phone_country
  const register = useMutation({
    // The page's language goes with the account, so its first e-mail (a code, when addresses are confirmed by one) is in it.
    mutationFn: (body: RegisterBody) => unwrap(api.POST('/api/v1/session/register', { body, params: { header: CSRF_HEADERS } })),
    onSuccess: async (answer) => {
      startSession(answer)
      // Where addresses are confirmed by a code, one is on its way: the next page says so and takes it.
      const mode = await fetchAccountSettings(client).then((settings) => settings.email_verification, () => 'self' as const)
      const next = mode === 'code' ? '/verify-email' : '/'
      success(t('account.registered', { name: answer.user.first_name }), next)
      void navigate(next)
    },
    onError: form.fail,
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (register.isPending) return
    const data = new FormData(event.currentTarget)
    const value = (name: string) => String(data.get(name) ?? '').trim()
    const locale = i18n.language === 'de' ? 'de' : 'en'
    const body = { first_name: value('first_name'), last_name: value('last_name'), email: value('email'), password: String(data.get('password') ?? ''), locale } as const
    const typedPhone = value('phone')
    const phone = typedPhone === '' ? '' : readPhone(typedPhone, country)
    const problems: Problem[] = []
    if (body.first_name === '') problems.push({ field: 'first_name', message: t('errors.firstNameRequired') })
    if (body.last_name === '') problems.push({ field: 'last_name', message: t('errors.lastNameRequired') })
    if (body.email === '') problems.push({ field: 'email', message: t('errors.emailRequired') })
    if (body.password.length < 8) problems.push({ field: 'password', message: t(body.password === '' ? 'errors.passwordRequired' : 'errors.passwordShort') })
    if (phone === undefined) problems.push({ field: 'phone', message: t('errors.phoneInvalid') })
    if (problems.length > 0) return form.show(problems)
    form.clear()
    register.mutate(phone === '' || phone === undefined ? body : { ...body, phone })
  }

  return (
    <Page title={t('account.registerTitle')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <TextInput name='first_name' label={t('account.firstName')} autoComplete='given-name' />
        <TextInput name='last_name' label={t('account.lastName')} autoComplete='family-name' />
        <TextInput name='email' type='email' label={t('account.email')} autoComplete='email' />
        <TextInput name='password' type='password' label={t('account.password')} hint={t('account.passwordHint')} autoComplete='new-password' />
        <TextInput name='phone' type='tel' label={t('account.phone')} hint={t('account.phoneHint')} autoComplete='tel' optional />
        <Button type='submit' className='button'>{t('account.register')}</Button>
      </Form>
    </Page>
  )
}
