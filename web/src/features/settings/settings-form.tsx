import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { Button, Checkbox, CheckboxGroup, FieldError, Form, Label, Switch, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Choice } from '../../components/choice'
import { ErrorSummary, fieldId } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'
import { putSettings, SETTINGS_KEY, type NotificationSettings } from './api'
import { TimeZoneSelect } from './time-zone'

/** The types of docs/api/messaging.md › Notifications a person may choose, in the order a person meets them (asking, then helping, then trust). */
export const CHOOSABLE_TYPES = [
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'request_alert', 'request_alert_closed',
  'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised',
  'concern_resolved', 'volunteer_confirmed', 'request_expired', 'still_needed', 'please_complete', 'series_invitation', 'confirm_needed',
  'confirmation_missed', 'reminder', 'visit_not_started', 'visit_overdue',
] as const

const FIELDS = ['email_types', 'push_types', 'quiet', 'quiet_start', 'quiet_end', 'time_zone'] as const

/** "22:00", and what people type for it ("7:00", "07.00"), to HH:MM; undefined when it is no time of day. */
export function readTime (text: string): string | undefined {
  const match = /^(\d{1,2})[:.](\d{2})$/.exec(text.trim())
  if (match === null) return undefined
  const [hours, minutes] = [Number(match[1]), Number(match[2])]
  if (hours > 23 || minutes > 59) return undefined
  return `${String(hours).padStart(2, '0')}:${match[2]}`
}

/** One channel: on or off, and (while on) its types, as GOV.UK's conditional reveal. */
function ChannelFields ({ channel, enabled, setEnabled, types, setTypes }: {
  channel: 'email' | 'push'
  enabled: boolean
  setEnabled: (on: boolean) => void
  types: string[]
  setTypes: (types: string[]) => void
}) {
  const { t } = useTranslation()
  const name = `${channel}_types`
  return (
    <section aria-labelledby={`${channel}-heading`} className='stack'>
      <h2 id={`${channel}-heading`}>{t(`settings.${channel}`)}</h2>
      <Switch className='switch' isSelected={enabled} onChange={setEnabled}>
        <span className='switch-track' aria-hidden='true'><span className='switch-thumb' /></span>
        <span>{t(`settings.${channel}On`)}<span className='hint radio-hint'>{t(`settings.${channel}OnHint`)}</span></span>
      </Switch>
      {enabled
        ? (
          <CheckboxGroup className='field choice' name={name} value={types} onChange={setTypes} id={fieldId(name)}>
            <Label className='legend'>{t(`settings.${channel}Types`)}</Label>
            <Text slot='description' className='hint'>{t('settings.typesHint')}</Text>
            <FieldError className='field-error' />
            {CHOOSABLE_TYPES.map((type) => (
              <Checkbox key={type} value={type} className='radio'>
                <span className='checkbox-mark' aria-hidden='true' />
                <span>{t(`settings.types.${type}`)}</span>
              </Checkbox>
            ))}
          </CheckboxGroup>
          )
        : null}
    </section>
  )
}

/** Types the service listed that this page does not offer (account messages, a later extension's): kept as they were. */
const othersOf = (types: string[]): string[] => types.filter((type) => !(CHOOSABLE_TYPES as readonly string[]).includes(type))
const choosableOf = (types: string[]): string[] => types.filter((type) => (CHOOSABLE_TYPES as readonly string[]).includes(type))

/** docs/api/messaging.md › Deliveries and e-mail: e-mail and push with their types, quiet hours and the time zone they follow. */
export function SettingsForm ({ saved, onProblems }: { saved: NotificationSettings, onProblems: (shown: boolean) => void }) {
  const { t } = useTranslation()
  const success = useSuccess()
  const client = useQueryClient()
  const form = useFormProblems(FIELDS)
  const [emailOn, setEmailOn] = useState(saved.email.enabled)
  const [emailTypes, setEmailTypes] = useState(choosableOf(saved.email.types))
  const [pushOn, setPushOn] = useState(saved.push.enabled)
  const [pushTypes, setPushTypes] = useState(choosableOf(saved.push.types))
  const [quiet, setQuiet] = useState(saved.quiet_hours === null ? 'none' : 'some')
  const [quietStart, setQuietStart] = useState(saved.quiet_hours?.start ?? '22:00')
  const [quietEnd, setQuietEnd] = useState(saved.quiet_hours?.end ?? '07:00')
  const [zone, setZone] = useState(saved.time_zone)
  // The page's title says "Error:" while problems are shown (GOV.UK's error summary pattern).
  const shown = form.problems.length > 0
  useEffect(() => { onProblems(shown) }, [shown, onProblems])
  const save = useMutation({
    mutationFn: putSettings,
    onSuccess: (answer) => {
      client.setQueryData(SETTINGS_KEY, answer)
      success(t('settings.saved'))
    },
    onError: form.fail,
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (save.isPending) return
    const problems: Problem[] = []
    let quietHours: NotificationSettings['quiet_hours'] = null
    if (quiet === 'some') {
      const start = readTime(quietStart)
      const end = readTime(quietEnd)
      if (start === undefined) problems.push({ field: 'quiet_start', message: t('settings.errors.quietStart') })
      if (end === undefined) problems.push({ field: 'quiet_end', message: t('settings.errors.quietEnd') })
      if (start !== undefined && start === end) problems.push({ field: 'quiet_end', message: t('settings.errors.quietSame') })
      if (start !== undefined && end !== undefined) quietHours = { start, end }
    }
    if (problems.length > 0) return form.show(problems)
    form.clear()
    save.mutate({
      email: { enabled: emailOn, types: [...emailTypes, ...othersOf(saved.email.types)] },
      push: { enabled: pushOn, types: [...pushTypes, ...othersOf(saved.push.types)] },
      quiet_hours: quietHours,
      time_zone: zone,
    })
  }

  return (
    <>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack settings-form'>
        <ChannelFields channel='email' enabled={emailOn} setEnabled={setEmailOn} types={emailTypes} setTypes={setEmailTypes} />
        <ChannelFields channel='push' enabled={pushOn} setEnabled={setPushOn} types={pushTypes} setTypes={setPushTypes} />
        <section aria-labelledby='quiet-heading' className='stack'>
          <h2 id='quiet-heading'>{t('settings.quiet')}</h2>
          <Choice
            name='quiet' label={t('settings.quietChoice')} hint={t('settings.quietHint')} value={quiet} onChange={setQuiet} options={[
              { value: 'none', label: t('settings.quietNone') },
              { value: 'some', label: t('settings.quietSome') },
            ]}
          />
          {quiet === 'some'
            ? (
              <div className='pair'>
                <TextInput name='quiet_start' label={t('settings.quietStart')} hint={t('settings.timeHint')} inputMode='numeric' value={quietStart} onChange={setQuietStart} />
                <TextInput name='quiet_end' label={t('settings.quietEnd')} hint={t('settings.timeHint')} inputMode='numeric' value={quietEnd} onChange={setQuietEnd} />
              </div>
              )
            : null}
          <TimeZoneSelect value={zone} onChange={setZone} error={form.validationErrors.time_zone} />
        </section>
        <Button type='submit' className='button'>{t('settings.save')}</Button>
      </Form>
    </>
  )
}
