import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useAccountSettings } from '../../../api/account-settings'
import { api } from '../../../api/client'
import { unwrap } from '../../../api/errors'
import { useRequestTypes } from '../../../api/use-request-types'
import { TextInput } from '../../../components/fields'
import { readPhone } from '../../../lib/phone'
import { useFormProblems } from '../../../components/use-form-problems'
import { kindLabel } from '../labels'
import { URGENCIES, urgenciesFor, useAskingFor, useStep, type Answers } from './answers'
import { QuestionChoice, QuestionHeading, QuestionText, StepPage, useAskWords } from './step'

export const ME = ['get', '/api/v1/users/me'] as const

/** Continue: the page's problems if any, else the answers kept and the next page. */
export function useContinue (step: Parameters<typeof useStep>[0], fields: readonly string[]) {
  const navigate = useNavigate()
  const state = useStep(step)
  const form = useFormProblems(fields)
  const go = (check: () => { field: string, message: string } | undefined, patch: Partial<Answers>) => {
    const problem = check()
    if (problem !== undefined) return form.show([problem])
    form.clear()
    state.update(patch)
    void navigate(state.next({ ...state.answers, ...patch }))
  }
  return { ...state, form, go }
}

export function KindStep () {
  const { t } = useTranslation()
  const step = useContinue('kind', ['request_type_id'])
  const types = useRequestTypes()
  const words = useAskWords()
  const kind = step.answers.kind ?? null
  const question = words('kind')
  // No h1 while loading: the focus after navigation waits for the page's own (docs/web.md).
  if (types.isPending) return <p>{t('common.loading')}</p>
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(() => kind === null ? { field: 'request_type_id', message: words('errors.kind') } : undefined, { kind: kind ?? undefined })}>
      {types.isError
        ? <><QuestionHeading>{question}</QuestionHeading><p className='error-text' role='alert'>{t('errors.offline')}</p></>
        : (
          <QuestionChoice
            name='request_type_id'
            label={question}
            hint={words('intro')}
            value={kind}
            onChange={(value) => step.update({ kind: value })}
            options={types.data.filter((type) => type.is_active).map((type) => ({ value: String(type.id), label: kindLabel(t, type.id, type.name) }))}
          />
          )}
    </StepPage>
  )
}

export function TitleStep () {
  const { t } = useTranslation()
  const step = useContinue('title', ['title'])
  const title = step.answers.title ?? ''
  return (
    <StepPage question={t('ask.titleField')} back={step.back} form={step.form} onContinue={() => step.go(() => title.trim().length < 5 ? { field: 'title', message: t('ask.errors.title') } : undefined, { title: title.trim() })}>
      <QuestionText name='title' label={t('ask.titleField')} hint={t('ask.titleHint')} maxLength={200} value={title} onChange={(value) => step.update({ title: value })} />
    </StepPage>
  )
}

export function DescriptionStep () {
  const step = useContinue('description', ['description'])
  const words = useAskWords()
  const description = step.answers.description ?? ''
  return (
    <StepPage question={words('description')} back={step.back} form={step.form} onContinue={() => step.go(() => description.trim().length < 10 ? { field: 'description', message: words('errors.description') } : undefined, { description: description.trim() })}>
      <QuestionText name='description' label={words('description')} hint={words('descriptionHint')} multiline maxLength={2000} value={description} onChange={(value) => step.update({ description: value })} />
    </StepPage>
  )
}

/** Regular help is booked ahead: "urgent: today" is not offered for it (an earlier answer of it counts as none). */
export function UrgencyStep () {
  const { t } = useTranslation()
  const step = useContinue('urgency', ['urgency'])
  const choices = urgenciesFor(step.answers)
  const regular = choices.length < URGENCIES.length
  const urgency = choices.find((value) => value === step.answers.urgency) ?? null
  return (
    <StepPage question={t('ask.urgency')} back={step.back} form={step.form} onContinue={() => step.go(() => urgency === null ? { field: 'urgency', message: t('ask.errors.urgency') } : undefined, { urgency: urgency ?? undefined })}>
      <QuestionChoice name='urgency' label={t('ask.urgency')} hint={regular ? t('ask.urgencyRegularHint') : undefined} value={urgency} onChange={(value) => step.update({ urgency: value })} options={choices.map((value) => ({ value, label: t(`urgency.${value}`) }))} />
    </StepPage>
  )
}

/**
 * Phone and notes share one page, both about reaching the person. The phone starts as the profile's
 * (WCAG 3.3.7: nothing asked twice); what the person types here wins, even an empty field.
 */
export function ContactStep () {
  const { t } = useTranslation()
  const step = useContinue('contact', ['contact_phone', 'contact_notes'])
  const { client } = useAskingFor()
  // For a carer's person the carer's own phone is not theirs: nothing is filled in.
  const forSomeone = step.answers.forUser !== undefined
  const me = useQuery({ queryKey: ME, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me', { signal })), enabled: client === undefined && !forSomeone })
  const words = useAskWords()
  const country = useAccountSettings().data?.phone_country
  const question = words('contactQuestion')
  if (step.answers.phone === undefined && client === undefined && !forSomeone && me.isPending) return <p>{t('common.loading')}</p>
  // A client's phone on record, or the profile's: what is typed here wins, even an empty field.
  const phone = step.answers.phone ?? (client !== undefined ? client.phone : forSomeone ? '' : me.data?.phone) ?? ''
  const notes = step.answers.notes ?? ''
  return (
    <StepPage question={question} back={step.back} form={step.form} onContinue={() => step.go(() => phone.trim() !== '' && readPhone(phone, country) === undefined ? { field: 'contact_phone', message: t('errors.phoneInvalid') } : undefined, { phone: phone.trim(), notes: notes.trim() })}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <div className='stack'>
          <TextInput name='contact_phone' type='tel' label={t('ask.phone')} hint={words('phoneHint')} autoComplete='tel' optional maxLength={50} value={phone} onChange={(value) => step.update({ phone: value })} />
          <TextInput name='contact_notes' label={t('ask.notes')} hint={t('ask.notesHint')} optional multiline maxLength={2000} value={notes} onChange={(value) => step.update({ notes: value })} />
        </div>
      </fieldset>
    </StepPage>
  )
}
