import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { CLIENTS_KEY, CONSENT_WAYS, type ConsentHow } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'
import { CoordinatorPages } from './workspace'

const FIELDS = ['first_name', 'last_name', 'phone', 'address', 'city', 'needs', 'consent'] as const
type Fields = Record<Exclude<typeof FIELDS[number], 'consent'>, string>

/** The 1.0.1 phone pattern, checked after spaces, slashes, brackets and dashes are taken out (as the profile does). */
const PHONE = /^\+?[1-9]\d{1,14}$/
const phoneOf = (typed: string): string => typed.replace(/[\s/()-]/g, '')

/** The name typed into the search, split at its last space: "Erna Maria Schmidt" → "Erna Maria", "Schmidt". */
function splitName (name: string): { first_name: string, last_name: string } {
  const parts = name.trim().split(/\s+/)
  return parts.length < 2 ? { first_name: parts[0] ?? '', last_name: '' } : { first_name: parts.slice(0, -1).join(' '), last_name: parts.at(-1) ?? '' }
}

/** The body of POST /clients: optional texts left out when empty. */
function clientOf (fields: Fields, how: ConsentHow) {
  const optional = Object.fromEntries((['phone', 'address', 'city', 'needs'] as const).flatMap((name) => fields[name].trim() === '' ? [] : [[name, name === 'phone' ? phoneOf(fields.phone) : fields[name].trim()]]))
  return { first_name: fields.first_name.trim(), last_name: fields.last_name.trim(), ...optional, consent: { how } }
}

/**
 * "Add a client" (behalf.md § 1): one form rather than one question a page, because a coordinator writes down what
 * the caller says in the order they say it (docs/web.md › Coordinators). The name or number searched for is filled
 * in. Consent is a required question with the three ways the API knows.
 */
export function NewClientPage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const client = useQueryClient()
  const [params] = useSearchParams()
  const form = useFormProblems(FIELDS)
  const [fields, setFields] = useState<Fields>(() => ({ ...splitName(params.get('name') ?? ''), phone: params.get('phone') ?? '', address: '', city: '', needs: '' }))
  const [how, setHow] = useState<ConsentHow | null>(null)
  const set = (name: keyof Fields) => (value: string) => setFields((previous) => ({ ...previous, [name]: value }))
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
    const problems: Problem[] = []
    if (fields.first_name.trim() === '') problems.push({ field: 'first_name', message: t('coordinator.add.errors.firstName') })
    if (fields.last_name.trim() === '') problems.push({ field: 'last_name', message: t('coordinator.add.errors.lastName') })
    if (fields.phone.trim() !== '' && !PHONE.test(phoneOf(fields.phone))) problems.push({ field: 'phone', message: t('errors.phoneInvalid') })
    if (how === null) problems.push({ field: 'consent', message: t('coordinator.add.errors.consent') })
    if (problems.length > 0 || how === null) return form.show(problems)
    form.clear()
    if (!create.isPending) create.mutate(clientOf(fields, how))
  }
  return (
    <Page title={t('coordinator.add.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <CoordinatorPages />
      <p>{t('coordinator.add.intro')}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <TextInput name='first_name' label={t('coordinator.add.firstName')} autoComplete='off' maxLength={100} value={fields.first_name} onChange={set('first_name')} />
        <TextInput name='last_name' label={t('coordinator.add.lastName')} autoComplete='off' maxLength={100} value={fields.last_name} onChange={set('last_name')} />
        <TextInput name='phone' type='tel' label={t('coordinator.add.phone')} hint={t('coordinator.add.phoneHint')} autoComplete='off' optional maxLength={50} value={fields.phone} onChange={set('phone')} />
        <TextInput name='address' label={t('coordinator.add.address')} hint={t('coordinator.add.addressHint')} autoComplete='off' optional maxLength={500} value={fields.address} onChange={set('address')} />
        <TextInput name='city' label={t('coordinator.add.city')} autoComplete='off' optional maxLength={200} value={fields.city} onChange={set('city')} />
        <TextInput name='needs' label={t('coordinator.add.needs')} hint={t('coordinator.add.needsHint')} optional multiline maxLength={1000} value={fields.needs} onChange={set('needs')} />
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
