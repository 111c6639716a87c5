import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { ConfirmedAction } from '../../components/confirmed-action'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { inOrder, TRUSTED_PEOPLE_KEY, useTrustedPeople } from './api'
import './carers.css'

/**
 * "People who help me" (docs/api/on-behalf.md › Carers and docs/web/on-behalf.md): who was invited, whether they answered, what each may do in plain
 * words, and a way to stop it at once that asks first (ConfirmedAction).
 */
export function PeopleWhoHelpMePage () {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const people = useTrustedPeople()
  return (
    <Page title={t('carers.helpers.title')}>
      <p>{t('carers.helpers.intro')}</p>
      <p><Link href='/people-who-help-me/invite' className='button'>{t('carers.helpers.invite')}</Link></p>
      <h2>{t('carers.helpers.listHeading')}</h2>
      {people.isPending
        ? <p>{t('common.loading')}</p>
        : people.isError
          ? <p className='error-text' role='alert'>{serverProblem(people.error, t, []).message}</p>
          : people.data.length === 0
            ? <p>{t('carers.helpers.none')}</p>
            : (
              <ul className='cards'>
                {people.data.map((person) => {
                  const who = person.name ?? person.email
                  return (
                    <li key={person.id} className='card'>
                      <h3>{who}</h3>
                      <dl className='facts'>
                        {person.name !== null ? <div><dt>{t('carers.email')}</dt><dd>{person.email}</dd></div> : null}
                        <div><dt>{t('carers.statusLabel')}</dt><dd><span className={`status status-${person.status}`}>{t(`carers.status.${person.status}`)}</span></dd></div>
                        <div><dt>{t('carers.invited')}</dt><dd>{formatDate(person.created_at, i18n.language)}</dd></div>
                      </dl>
                      <p className='small-heading'>{t('carers.helpers.mayDo', { name: who })}</p>
                      <ul className='can-list'>
                        {inOrder(person.can).map((can) => <li key={can}>{t(`carers.can.${can}`)}</li>)}
                      </ul>
                      {person.status !== 'declined'
                        ? (
                          <ConfirmedAction
                            words={{
                              open: t(person.status === 'accepted' ? 'carers.stop.open' : 'carers.stop.openInvite', { name: who }),
                              title: t(person.status === 'accepted' ? 'carers.stop.title' : 'carers.stop.titleInvite', { name: who }),
                              text: t('carers.stop.text', { name: who }),
                              confirm: t('carers.stop.confirm'),
                              keep: t('carers.stop.keep'),
                              done: t('carers.stop.done', { name: who }),
                            }}
                            run={() => unwrap(api.DELETE('/api/v1/users/me/trusted-people/{id}', { params: { path: { id: person.id } } }))}
                            onDone={() => queryClient.invalidateQueries({ queryKey: TRUSTED_PEOPLE_KEY })}
                          />
                          )
                        : null}
                    </li>
                  )
                })}
              </ul>
              )}
    </Page>
  )
}
