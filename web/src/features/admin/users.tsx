import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'

const userKey = (id: number) => ['get', '/api/v1/users/{id}', id] as const

/** One user, found by number: their state in words, and the admin's actions on them. */
function UserCard ({ id }: { id: number }) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const client = useQueryClient()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [role, setRole] = useState<string | null>(null)
  const user = useQuery({ queryKey: userKey(id), queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/{id}', { params: { path: { id } }, signal })) })
  const roles = useQuery({ queryKey: ['get', '/api/v1/roles'], queryFn: ({ signal }) => unwrap(api.GET('/api/v1/roles', { signal })), staleTime: 3_600_000 })
  const act = useMutation({
    mutationFn: async (action: 'block' | 'unblock' | 'verify' | 'give' | 'take') => {
      const path = { params: { path: { id } } }
      if (action === 'block') return await unwrap(api.POST('/api/v1/admin/users/{id}/block', path))
      if (action === 'unblock') return await unwrap(api.POST('/api/v1/admin/users/{id}/unblock', path))
      if (action === 'verify') return await unwrap(api.POST('/api/v1/admin/users/{id}/verify', path))
      const roleParams = { params: { path: { user_id: id, role_id: Number(role) } } }
      return action === 'give'
        ? await unwrap(api.POST('/api/v1/admin/users/{user_id}/roles/{role_id}', roleParams))
        : await unwrap(api.DELETE('/api/v1/admin/users/{user_id}/roles/{role_id}', roleParams))
    },
    onSuccess: async (_answer, action) => {
      setProblem(undefined)
      await client.invalidateQueries({ queryKey: userKey(id) })
      const roleName = roles.data?.find((r) => String(r.id) === role)?.name ?? ''
      announce(t(`admin.done.${action}`, { role: t(`roles.${roleName}`, { defaultValue: roleName }) }))
    },
    onError: (error) => {
      const message = serverProblem(error, t, []).message
      setProblem(message)
      announce(message)
    },
  })
  const run = (action: 'block' | 'unblock' | 'verify' | 'give' | 'take') => {
    if (act.isPending) return
    if ((action === 'give' || action === 'take') && role === null) {
      setProblem(t('admin.chooseRole'))
      announce(t('admin.chooseRole'))
      return
    }
    act.mutate(action)
  }
  if (user.isPending) return <p>{t('common.loading')}</p>
  if (user.isError) {
    const notFound = user.error instanceof ApiError && user.error.status === 404
    return <p className='error-text' role='alert'>{notFound ? t('admin.notFound', { id }) : serverProblem(user.error, t, []).message}</p>
  }
  const profile = user.data
  return (
    <section aria-labelledby='user-heading' className='card'>
      <h2 id='user-heading'>{t('admin.user', { name: `${profile.first_name} ${profile.last_name}`, id: profile.id })}</h2>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      <dl className='facts'>
        <div><dt>{t('account.email')}</dt><dd>{profile.email}</dd></div>
        <div><dt>{t('admin.state')}</dt><dd>{profile.is_blocked ? t('admin.blocked') : t('admin.active')}</dd></div>
        <div><dt>{t('admin.identity')}</dt><dd>{profile.is_verified ? t('admin.verified') : t('admin.notVerified')}</dd></div>
      </dl>
      <div className='actions'>
        {profile.is_blocked
          ? <Button className='button secondary' onPress={() => run('unblock')}>{t('admin.unblock')}</Button>
          : <Button className='button danger' onPress={() => run('block')}>{t('admin.block')}</Button>}
        {!profile.is_verified ? <Button className='button secondary' onPress={() => run('verify')}>{t('admin.verify')}</Button> : null}
      </div>
      <Choice
        name='role'
        label={t('admin.role')}
        value={role}
        onChange={setRole}
        optional
        options={(roles.data ?? []).map((r) => ({ value: String(r.id), label: t(`roles.${r.name}`, { defaultValue: r.name }) }))}
      />
      <div className='actions'>
        <Button className='button' onPress={() => run('give')}>{t('admin.give')}</Button>
        <Button className='button secondary' onPress={() => run('take')}>{t('admin.take')}</Button>
      </div>
    </section>
  )
}

export function AdminPage () {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const form = useFormProblems(['user_id'])
  const id = Number(params.get('user'))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const text = String(new FormData(event.currentTarget).get('user_id') ?? '').trim()
    if (!/^\d+$/.test(text) || Number(text) < 1) return form.show([{ field: 'user_id', message: t('admin.errors.id') }])
    form.clear()
    setParams({ user: text })
  }
  return (
    <Page title={t('admin.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack' role='search'>
        <TextInput name='user_id' label={t('admin.find')} hint={t('admin.findHint')} inputMode='numeric' defaultValue={params.get('user') ?? ''} />
        <Button type='submit' className='button'>{t('admin.show')}</Button>
      </Form>
      {Number.isInteger(id) && id > 0 ? <UserCard key={id} id={id} /> : null}
    </Page>
  )
}
