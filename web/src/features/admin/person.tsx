import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { profileKey } from '../../api/keys'
import { Page } from '../../components/page'
import { checkKind } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { Checks } from './checks'
import '../../components/journeys.css'

/**
 * A person, as moderators and admins see them (`/people/:id`, linked from the users' search and the
 * concerns queue): who they are, whether verified, and their checks. Opening it reads the profile, which
 * the service records as a view of the person's contact details (docs/privacy.md › Access records): the page shows none of them.
 */
export function PersonPage () {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const valid = Number.isSafeInteger(id) && id > 0
  const profile = useQuery({ queryKey: profileKey(id), queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/{id}', { params: { path: { id } }, signal })), enabled: valid })
  if (!valid || (profile.isError && profile.error instanceof ApiError && profile.error.status === 404)) {
    return <Page title={t('person.notFound')}><p>{t('person.notFoundText')}</p></Page>
  }
  if (profile.isPending) return <p>{t('common.loading')}</p>
  if (profile.isError) return <Page title={t('person.title')}><p className='error-text' role='alert'>{serverProblem(profile.error, t).message}</p></Page>
  const person = profile.data
  const name = `${person.first_name} ${person.last_name}`
  return (
    <Page title={name}>
      <dl className='facts'>
        <div><dt>{t('person.number')}</dt><dd>{person.id}</dd></div>
        <div><dt>{t('admin.identity')}</dt><dd>{person.is_verified ? t('admin.verifiedState') : t('admin.notVerified')}</dd></div>
        <div><dt>{t('person.validChecks')}</dt><dd>{person.checks.length > 0 ? person.checks.map((kind) => checkKind(t, kind)).join(', ') : t('person.noValidChecks')}</dd></div>
      </dl>
      <Checks userId={person.id} name={name} />
    </Page>
  )
}
