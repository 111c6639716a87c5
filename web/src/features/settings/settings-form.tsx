import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { Button, Form } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { phoneState, useOwnPhone } from '../../api/phone'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'
import { putSettings, SETTINGS_KEY, type NotificationSettings } from './api'
import { ChannelFields } from './channel-fields'
import { TextsFields } from './texts-fields'
import { TimeZoneSelect } from './time-zone'
import { CHOOSABLE_TYPES } from './types'

const FIELDS = ['email_types', 'push_types', 'sms_types', 'quiet', 'quiet_start', 'quiet_end', 'time_zone'] as const

/** "22:00", and what people type for it ("7:00", "07.00"), to HH:MM; undefined when it is no time of day. */
export function readTime (text: string): string | undefined {
  const match = /^(\d{1,2})[:.](\d{2})$/.exec(text.trim())
  if (match === null) return undefined
  const [hours, minutes] = [Number(match[1]), Number(match[2])]
  if (hours > 23 || minutes > 59) return undefined
  return `${String(hours).padStart(2, '0')}:${match[2]}`
}

/** Types the service listed that this page does not offer (account messages, a later extension's): kept as they were. */
const othersOf = (types: string[]): string[] => types.filter((type) => !(CHOOSABLE_TYPES as readonly string[]).includes(type))
const choosableOf = (types: string[]): string[] => types.filter((type) => (CHOOSABLE_TYPES as readonly string[]).includes(type))

/** docs/api/messaging.md › Deliveries and e-mail and › Texts: e-mail, texts and push with their types, quiet hours and the time zone they follow. */
export function SettingsForm ({ saved, onProblems }: { saved: NotificationSettings, onProblems: (shown: boolean) => void }) {
  const { t } = useTranslation()
  const success = useSuccess()
  const client = useQueryClient()
  const form = useFormProblems(FIELDS)
  const [emailOn, setEmailOn] = useState(saved.email.enabled)
  const [emailTypes, setEmailTypes] = useState(choosableOf(saved.email.types))
  const [pushOn, setPushOn] = useState(saved.push.enabled)
  const [pushTypes, setPushTypes] = useState(choosableOf(saved.push.types))
  const [smsOn, setSmsOn] = useState(saved.sms.enabled)
  const [smsTypes, setSmsTypes] = useState(choosableOf(saved.sms.types))
  // Texts are chosen only while they can go to the profile's phone; otherwise what was saved stays as it was.
  const phone = useOwnPhone()
  const textsUsable = phone.data !== undefined && phoneState(phone.data) === 'ready'
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
      ...(textsUsable ? { sms: { enabled: smsOn, types: [...smsTypes, ...othersOf(saved.sms.types)] } } : {}),
      quiet_hours: quietHours,
      time_zone: zone,
    })
  }

  return (
    <>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack settings-form'>
        <ChannelFields channel='email' choices={CHOOSABLE_TYPES} state={{ enabled: emailOn, setEnabled: setEmailOn, types: emailTypes, setTypes: setEmailTypes }} />
        <TextsFields phone={phone} state={{ enabled: smsOn, setEnabled: setSmsOn, types: smsTypes, setTypes: setSmsTypes }} />
        <ChannelFields channel='push' choices={CHOOSABLE_TYPES} state={{ enabled: pushOn, setEnabled: setPushOn, types: pushTypes, setTypes: setPushTypes }} />
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
