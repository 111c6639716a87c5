import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { useAccountSettings } from '../../api/account-settings'
import { api } from '../../api/client'
import { CLIENTS_KEY, CONSENT_WAYS, type ConsentHow } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { DETAILS, DetailFields, detailProblems, detailsBody, type Details } from './client-form'
import { CoordinatorPages } from './workspace'

const FIELDS = [...DETAILS, 'consent'] as const

/** The name typed into the search, split at its last space: "Erna Maria Schmidt" → "Erna Maria", "Schmidt". */
function splitName (name: string): { first_name: string, last_name: string } {
  const parts = name.trim().split(/\s+/)
  return parts.length < 2 ? { first_name: parts[0] ?? '', last_name: '' } : { first_name: parts.slice(0, -1).join(' '), last_name: parts.at(-1) ?? '' }
}

/** The body of POST /clients: optional texts left out when empty. */
const clientOf = (fields: Details, how: ConsentHow, country: string | undefined) => ({ ...detailsBody(fields, false, country), consent: { how } })

/**
 * "Add a client" (docs/api/on-behalf.md › Coordinators and clients): one form rather than one question a page, because a coordinator writes down what
 * the caller says in the order they say it (docs/web/on-behalf.md › Coordinators). The name or number searched for is filled
 * in. Consent is a required question with the three ways the API knows.
 */
export function NewClientPage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const client = useQueryClient()
  const [params] = useSearchParams()
  const form = useFormProblems(FIELDS)
  const country = useAccountSettings().data?.phone_country
  const [fields, setFields] = useState<Details>(() => ({ ...splitName(params.get('name') ?? ''), phone: params.get('phone') ?? '', address: '', city: '', needs: '' }))
  const [how, setHow] = useState<ConsentHow | null>(null)
  const create = useMutation({
    mutationFn: (body: ReturnType<typeof clientOf>) => unwrap(api.POST('/api/v1/clients', { body })),
    onSuccess: async (created) => {
      await client.invalidateQueries({ queryKey: CLIENTS_KEY })
      const page = `/clients/${created.id}`
      success(t('coordinator.add.added', { name: `${created.first_name} ${created.last_name}` }), page)
      void navigate(page)
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problems = detailProblems(fields, t, country)
    if (how === null) problems.push({ field: 'consent', message: t('coordinator.add.errors.consent') })
    if (problems.length > 0 || how === null) return form.show(problems)
    form.clear()
    if (!create.isPending) create.mutate(clientOf(fields, how, country))
  }
  return (
    <Page title={t('coordinator.add.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <CoordinatorPages />
      <p>{t('coordinator.add.intro')}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <DetailFields details={fields} onChange={setFields} />
        <Choice
          name='consent'
          label={t('coordinator.add.consent')}
          hint={t('coordinator.add.consentHint')}
          value={how}
          onChange={(value) => setHow(value as ConsentHow)}
          options={CONSENT_WAYS.map((way) => ({ value: way, label: t(`coordinator.consent.${way}`) }))}
        />
        <div className='actions'>
          <Button type='submit' className='button'>{t('coordinator.add.save')}</Button>
          <Link href='/clients'>{t('coordinator.add.cancel')}</Link>
        </div>
      </Form>
    </Page>
  )
}
