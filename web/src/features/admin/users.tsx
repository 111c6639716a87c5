import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button, Form, Input, Label, Link, Text, TextField } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { MY_ROLES_KEY } from '../../api/use-my-roles'
import { useSession } from '../../api/use-session'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import '../../components/journeys.css'
import { UserRoles } from './user-roles'

type AdminUser = Awaited<ReturnType<typeof findUsers>>[number]

function findUsers (q: string, signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/admin/users', { params: { query: { q, limit: '50' } }, signal }))
}

/** Roles by id, as docs/api/conventions.md seeds them; the list of roles comes from the API. */
const ROLES_KEY = ['get', '/api/v1/roles'] as const

/**
 * One user: their state in words, their roles (user-roles.tsx: each change asked first), and block, unblock and
 * verify as buttons named with the person's name; after one, focus goes to the card's heading.
 */
function UserCard ({ user, roles, resultsKey }: { user: AdminUser, roles: Array<{ id: number, name: string }>, resultsKey: readonly unknown[] }) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const client = useQueryClient()
  const me = useSession().user
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const name = `${user.first_name} ${user.last_name}`
  const headingId = `user-${user.id}`
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: resultsKey })
    if (user.id === me?.id) await client.invalidateQueries({ queryKey: MY_ROLES_KEY })
  }
  const fail = (error: unknown) => {
    const message = serverProblem(error, t).message
    setProblem(message)
    announce(message)
  }
  const flag = useMutation({
    mutationFn: (action: 'block' | 'unblock' | 'verify') => {
      const path = { params: { path: { id: user.id } } }
      if (action === 'block') return unwrap(api.POST('/api/v1/admin/users/{id}/block', path))
      if (action === 'unblock') return unwrap(api.POST('/api/v1/admin/users/{id}/unblock', path))
      return unwrap(api.POST('/api/v1/admin/users/{id}/verify', path))
    },
    onSuccess: async (_answer, action) => {
      setProblem(undefined)
      await refresh()
      success(t(action === 'block' ? 'admin.blocked' : action === 'unblock' ? 'admin.unblocked' : 'admin.verified', { name }))
      // The pressed button is gone (replaced by its opposite, or by nothing once verified): focus stays in the card.
      document.getElementById(headingId)?.focus()
    },
    onError: fail,
  })
  return (
    <li>
      <article className='card' aria-labelledby={headingId}>
        <h3 id={headingId} tabIndex={-1}>{name}</h3>
        <dl className='facts'>
          <div><dt>{t('admin.email')}</dt><dd>{user.email}</dd></div>
          <div><dt>{t('admin.account')}</dt><dd>{user.is_blocked ? t('admin.blockedState') : t('admin.active')}</dd></div>
          <div><dt>{t('admin.identity')}</dt><dd>{user.is_verified ? t('admin.verifiedState') : t('admin.notVerified')}</dd></div>
        </dl>
        <UserRoles userId={user.id} name={name} held={user.role_ids} roles={roles} onChanged={refresh} />
        {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
        <div className='actions'>
          {user.is_blocked
            ? <Button className='button secondary' aria-label={`${t('admin.unblock')}: ${name}`} onPress={() => { if (!flag.isPending) flag.mutate('unblock') }}>{t('admin.unblock')}</Button>
            : <Button className='button danger' aria-label={`${t('admin.block')}: ${name}`} onPress={() => { if (!flag.isPending) flag.mutate('block') }}>{t('admin.block')}</Button>}
          {user.is_verified
            ? null
            : <Button className='button secondary' aria-label={`${t('admin.verify')}: ${name}`} onPress={() => { if (!flag.isPending) flag.mutate('verify') }}>{t('admin.verify')}</Button>}
        </div>
        <p><Link href={`/people/${user.id}`}>{t('person.checksOf', { name })}</Link></p>
      </article>
    </li>
  )
}

/** Find a user by part of the name or e-mail address (kept in the address, so a reload keeps it). */
export function AdminUsersPage () {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const [params, setParams] = useSearchParams()
  const q = params.get('q')
  const [text, setText] = useState(q ?? '')
  const resultsKey = ['get', '/api/v1/admin/users', { q }] as const
  const results = useQuery({ queryKey: resultsKey, queryFn: ({ signal }) => findUsers(q ?? '', signal), enabled: q !== null })
  const roles = useQuery({ queryKey: ROLES_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/roles', { signal })), staleTime: Infinity })
  // Say how many were found after each search (not after a change to one of them).
  const announcedFor = useRef<string | null>(null)
  useEffect(() => {
    if (results.data === undefined || announcedFor.current === q) return
    announcedFor.current = q
    announce(t('admin.found', { count: results.data.length }))
  }, [results.data, q, announce, t])
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    announcedFor.current = null
    setParams({ q: text.trim() })
  }
  return (
    <Page title={t('admin.title')}>
      <Form onSubmit={submit} className='stack' role='search' aria-label={t('admin.title')}>
        <TextField className='field' name='q' value={text} onChange={setText} autoComplete='off'>
          <Label>{t('admin.query')}</Label>
          <Text slot='description' className='hint'>{t('admin.queryHint')}</Text>
          <Input type='search' />
        </TextField>
        <Button type='submit' className='button'>{t('admin.find')}</Button>
      </Form>
      {q === null
        ? null
        : (
          <section aria-labelledby='users-heading'>
            <h2 id='users-heading'>{t('admin.results')}</h2>
            {results.isPending || roles.isPending
              ? <p>{t('common.loading')}</p>
              : results.isError || roles.isError
                ? <p className='error-text'>{serverProblem(results.error ?? roles.error, t).message}</p>
                : results.data.length === 0
                  ? <p>{t('admin.none', { query: q })}</p>
                  : (
                    <>
                      <p>{t('admin.found', { count: results.data.length })}</p>
                      <ul className='cards'>
                        {results.data.map((user) => <UserCard key={user.id} user={user} roles={roles.data} resultsKey={resultsKey} />)}
                      </ul>
                    </>
                    )}
          </section>
          )}
    </Page>
  )
}
