import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useAccountSettings } from '../../api/account-settings'
import { api } from '../../api/client'
import { CLIENTS_KEY, clientKey, type Client } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { ErrorSummary } from '../../components/error-summary'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { WithClient } from './client'
import { DETAILS, DetailFields, detailProblems, detailsBody, detailsOf, type Details } from './client-form'
import { CoordinatorPages } from './workspace'

/**
 * "Change details" of a client (PATCH /clients/{id}): the fields of "Add a new client" in one short form, filled in
 * from the record, since a coordinator changes what the caller tells them, often more than one thing at once.
 * Consent is not asked again: the API keeps the one on record (docs/api/on-behalf.md › Coordinators and clients records it again only when sent).
 */
export function ChangeClientPage () {
  const { t } = useTranslation()
  return <WithClient title={t('coordinator.change.title')}>{(client) => <ChangeForm client={client} />}</WithClient>
}

function ChangeForm ({ client }: { client: Client }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const queries = useQueryClient()
  const form = useFormProblems(DETAILS)
  const country = useAccountSettings().data?.phone_country
  const [details, setDetails] = useState<Details>(() => detailsOf(client))
  const page = `/clients/${client.id}`
  const change = useMutation({
    mutationFn: (body: ReturnType<typeof detailsBody>) => unwrap(api.PATCH('/api/v1/clients/{id}', { params: { path: { id: client.id } }, body })),
    onSuccess: async (changed) => {
      queries.setQueryData(clientKey(client.id), changed)
      await queries.invalidateQueries({ queryKey: CLIENTS_KEY })
      success(t('coordinator.change.done', { name: `${changed.first_name} ${changed.last_name}` }), page)
      void navigate(page)
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problems = detailProblems(details, t, country)
    if (problems.length > 0) return form.show(problems)
    form.clear()
    if (!change.isPending) change.mutate(detailsBody(details, true, country))
  }
  return (
    <Page title={t('coordinator.change.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <CoordinatorPages />
      <p>{t('coordinator.change.intro', { name: `${client.first_name} ${client.last_name}` })}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <DetailFields details={details} onChange={setDetails} />
        <div className='actions'>
          <Button type='submit' className='button'>{t('coordinator.change.save')}</Button>
          <Link href={page}>{t('coordinator.change.cancel', { name: client.first_name })}</Link>
        </div>
      </Form>
    </Page>
  )
}
