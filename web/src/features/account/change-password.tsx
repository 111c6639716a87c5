import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { startSession } from '../../api/session'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'
import { changePassword } from './codes-api'

const FIELDS = ['current_password', 'password'] as const

/**
 * "Change your password" on the profile (docs/api/accounts.md › Getting back in and docs/web/accounts.md). The service revokes every earlier session and
 * answers with a new one, which this page takes over (its cookie is set by the session route), so the person
 * stays signed in here and is signed out everywhere else.
 */
export function ChangePassword () {
  const { t } = useTranslation()
  const success = useSuccess()
  const form = useFormProblems(FIELDS)
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: (answer) => {
      startSession(answer)
      setCurrent('')
      setNext('')
      success(t('changePassword.done'))
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (change.isPending) return
    const problems: Problem[] = []
    if (current === '') problems.push({ field: 'current_password', message: t('changePassword.errors.currentRequired') })
    if (next.length < 8) problems.push({ field: 'password', message: t(next === '' ? 'changePassword.errors.newRequired' : 'errors.passwordShort') })
    else if (next.length > 128) problems.push({ field: 'password', message: t('errors.passwordLong') })
    if (problems.length > 0) return form.show(problems)
    form.clear()
    change.mutate({ current_password: current, new_password: next })
  }
  return (
    <section aria-labelledby='password-heading'>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <h2 id='password-heading'>{t('changePassword.title')}</h2>
      <p className='hint'>{t('changePassword.intro')}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <TextInput name='current_password' type='password' label={t('changePassword.current')} autoComplete='current-password' value={current} onChange={setCurrent} />
        <TextInput name='password' type='password' label={t('changePassword.new')} hint={t('account.passwordHint')} autoComplete='new-password' value={next} onChange={setNext} />
        <Button type='submit' className='button'>{t('changePassword.submit')}</Button>
      </Form>
    </section>
  )
}
