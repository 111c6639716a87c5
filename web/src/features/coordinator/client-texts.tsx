import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { api } from '../../api/client'
import { CLIENTS_KEY, clientKey, CONSENT_WAYS, type Client, type ConsentHow } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { formatDate } from '../../lib/format'
import { WithClient } from './client'
import { CoordinatorPages } from './workspace'

/** docs/api/on-behalf.md › Texts to a client: the languages a client's texts can be in. */
type TextsLocale = Client['locale']
const LOCALES: readonly TextsLocale[] = ['en', 'de']
/** The answer to "Has Erna agreed to get texts?": one of the API's ways, or no (none recorded, or withdrawn). */
type Agreed = ConsentHow | 'no'
const FIELDS = ['texts', 'locale'] as const

/**
 * "Texts" on the client's page: whether the client agreed to texts, how and when it was recorded, their language, and
 * the way to change both (docs/api/on-behalf.md › Texts to a client). Without a phone on the record it says texts cannot reach them.
 */
export function TextsSummary ({ client }: { client: Client }) {
  const { t, i18n } = useTranslation()
  const name = client.first_name
  return (
    <section aria-labelledby='client-texts'>
      <h2 id='client-texts'>{t('coordinator.texts.heading')}</h2>
      <dl className='facts'>
        <div>
          <dt>{t('coordinator.texts.consent')}</dt>
          <dd>{client.texts === null
            ? t('coordinator.texts.none', { name })
            : t('coordinator.client.consentGiven', { how: t(`coordinator.consent.${client.texts.how}`), when: formatDate(client.texts.recorded_at, i18n.language) })}
          </dd>
        </div>
        <div><dt>{t('coordinator.texts.language')}</dt><dd lang={client.locale}>{t(`language.${client.locale}`)}</dd></div>
      </dl>
      {client.phone === null ? <p>{t('coordinator.texts.noPhone', { name })}</p> : null}
      <p><Link href={`/clients/${client.id}/texts`}>{t('coordinator.texts.open')}</Link></p>
    </section>
  )
}

/** /clients/:id/texts: the consent to texts recorded or withdrawn, and their language, in one short form. */
export function ClientTextsPage () {
  const { t } = useTranslation()
  return <WithClient title={t('coordinator.texts.title')}>{(client) => <TextsForm client={client} />}</WithClient>
}

function TextsForm ({ client }: { client: Client }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const queries = useQueryClient()
  const form = useFormProblems(FIELDS)
  const name = client.first_name
  const now: Agreed = client.texts?.how ?? 'no'
  const [agreed, setAgreed] = useState<Agreed>(now)
  const [locale, setLocale] = useState<TextsLocale>(client.locale)
  const page = `/clients/${client.id}`
  const change = useMutation({
    mutationFn: (body: { texts?: { how: ConsentHow } | null, locale?: TextsLocale }) =>
      unwrap(api.PATCH('/api/v1/clients/{id}', { params: { path: { id: client.id } }, body })),
    onSuccess: async (changed) => {
      queries.setQueryData(clientKey(client.id), changed)
      await queries.invalidateQueries({ queryKey: CLIENTS_KEY })
      success(t('coordinator.texts.done', { name: `${changed.first_name} ${changed.last_name}` }), page)
      void navigate(page)
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    form.clear()
    // The consent is sent only when the answer changed: sending it again would record it again, by this coordinator, now.
    const body = {
      ...agreed !== now ? { texts: agreed === 'no' ? null : { how: agreed } } : {},
      ...locale !== client.locale ? { locale } : {},
    }
    if (Object.keys(body).length === 0) {
      void navigate(page)
      return
    }
    if (!change.isPending) change.mutate(body)
  }
  return (
    <Page title={t('coordinator.texts.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <CoordinatorPages />
      <p>{client.phone === null ? t('coordinator.texts.noPhone', { name }) : t('coordinator.texts.intro', { name, phone: client.phone })}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <Choice
          name='texts'
          label={t('coordinator.texts.question', { name })}
          hint={t('coordinator.texts.hint', { name })}
          value={agreed}
          onChange={(value) => setAgreed(value as Agreed)}
          options={[
            ...CONSENT_WAYS.map((way) => ({ value: way, label: t(`coordinator.texts.yes.${way}`) })),
            { value: 'no', label: t('coordinator.texts.no') },
          ]}
        />
        <Choice
          name='locale'
          label={t('coordinator.texts.languageQuestion', { name })}
          value={locale}
          onChange={(value) => setLocale(value as TextsLocale)}
          // Each language named in itself, marked as such (WCAG 3.1.2).
          options={LOCALES.map((code) => ({ value: code, label: <span lang={code}>{t(`language.${code}`)}</span> }))}
        />
        <div className='actions'>
          <Button type='submit' className='button'>{t('coordinator.texts.save')}</Button>
          <Link href={page}>{t('coordinator.change.cancel', { name })}</Link>
        </div>
      </Form>
    </Page>
  )
}
