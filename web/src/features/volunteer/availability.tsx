import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Checkbox, CheckboxGroup, FieldError, Form, Label, Switch, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import type { paths } from '../../api/schema'
import { useRequestTypes } from '../../api/use-request-types'
import { useSuccess } from '../../components/success-banner'
import { Choice } from '../../components/choice'
import { ErrorSummary, fieldId } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { CoordinateFields, useCoordinates } from '../../components/coordinates'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem, type Problem } from '../../i18n/server-errors'
import { kindText } from '../../i18n/labels'
import { ChecksNotice } from './checks-notice'

type Availability = paths['/api/v1/users/me/availability']['get']['responses']['200']['content']['application/json']
type AvailabilityInput = NonNullable<paths['/api/v1/users/me/availability']['put']['requestBody']>['content']['application/json']

const AVAILABILITY = ['get', '/api/v1/users/me/availability'] as const
const FIELDS = ['on_duty', 'radius_meters', 'request_type_ids', 'max_alerts_per_day', 'where', 'latitude', 'longitude'] as const

/**
 * The form. `hasHome`: whether the profile has a home location. The place defaults to what works: the
 * home only when there is one, else "another place", asked for here (a new volunteer has no home yet,
 * and the service refuses to put them on duty without a place).
 */
function AvailabilityForm ({ saved, hasHome }: { saved: Availability, hasHome: boolean }) {
  const { t } = useTranslation()
  const success = useSuccess()
  const client = useQueryClient()
  const form = useFormProblems(FIELDS)
  const types = useRequestTypes()
  const [onDuty, setOnDuty] = useState(saved.on_duty)
  const [kinds, setKinds] = useState(saved.request_type_ids.map(String))
  const [where, setWhere] = useState(saved.uses_home_location && hasHome ? 'home' : 'point')
  const coordinates = useCoordinates(form.show, { latitude: saved.latitude?.toString() ?? '', longitude: saved.longitude?.toString() ?? '' })
  const save = useMutation({
    mutationFn: (body: AvailabilityInput) => unwrap(api.PUT('/api/v1/users/me/availability', { body })),
    onSuccess: async (answer) => {
      client.setQueryData(AVAILABILITY, answer)
      success(answer.on_duty ? t('availability.savedOnDuty') : t('availability.savedOffDuty'))
    },
    onError: (error) => {
      // "No place to go on duty from" is fixed by the choice of place, so the summary links there.
      const problem = serverProblem(error, t, FIELDS)
      if (problem.field === 'on_duty') form.show([{ ...problem, field: 'where' }])
      else form.fail(error)
    },
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (save.isPending) return
    const data = new FormData(event.currentTarget)
    const whole = (name: string, min: number, max: number) => {
      const text = String(data.get(name) ?? '').trim()
      const value = Number(text)
      return /^\d+$/.test(text) && value >= min && value <= max ? value : undefined
    }
    const radius = whole('radius_meters', 100, 50_000)
    const perDay = whole('max_alerts_per_day', 0, 50)
    const problems: Problem[] = []
    if (radius === undefined) problems.push({ field: 'radius_meters', message: t('availability.errors.radius') })
    if (perDay === undefined) problems.push({ field: 'max_alerts_per_day', message: t('availability.errors.perDay') })
    let point: { latitude: number | null, longitude: number | null } = { latitude: null, longitude: null }
    if (where === 'point') {
      point = coordinates.read(problems) ?? point
    } else if (!hasHome) {
      problems.push({ field: 'where', message: t('availability.errors.noHome') })
    }
    if (problems.length > 0) return form.show(problems)
    form.clear()
    save.mutate({ on_duty: onDuty, radius_meters: radius, max_alerts_per_day: perDay, request_type_ids: kinds.map(Number), ...point })
  }

  return (
    <>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <p>{t('availability.recent', { count: saved.alerts_last_24h })}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <Switch id={fieldId('on_duty')} className='switch' isSelected={onDuty} onChange={setOnDuty}>
          <span className='switch-track' aria-hidden='true'><span className='switch-thumb' /></span>
          <span>{t('availability.onDuty')}<span className='hint radio-hint'>{t('availability.onDutyHint')}</span></span>
        </Switch>
        {form.validationErrors.on_duty !== undefined ? <p className='field-error'>{form.validationErrors.on_duty}</p> : null}
        <TextInput name='radius_meters' label={t('availability.radius')} hint={t('availability.radiusHint')} inputMode='numeric' defaultValue={String(saved.radius_meters)} />
        <CheckboxGroup className='field choice' name='request_type_ids' value={kinds} onChange={setKinds} id={fieldId('request_type_ids')}>
          <Label className='legend'>{t('availability.kinds')}</Label>
          <Text slot='description' className='hint'>{t('availability.kindsHint')}</Text>
          <FieldError className='field-error' />
          {(types.data ?? []).map((type) => (
            <Checkbox key={type.id} value={String(type.id)} className='radio'>
              <span className='checkbox-mark' aria-hidden='true' />
              <span>{kindText(t, type.name)}</span>
            </Checkbox>
          ))}
        </CheckboxGroup>
        <TextInput name='max_alerts_per_day' label={t('availability.perDay')} hint={t('availability.perDayHint')} inputMode='numeric' defaultValue={String(saved.max_alerts_per_day)} />
        <Choice
          name='where' label={t('availability.where')} value={where} onChange={setWhere} options={[
            { value: 'home', label: t('availability.home'), description: hasHome ? t('availability.homeHint') : t('availability.homeNone') },
            { value: 'point', label: t('availability.point') },
          ]}
        />
        {where === 'point'
          ? (
            <div className='stack'>
              <Button className='button secondary' onPress={() => coordinates.fillFromDevice()}>{t('location.useCurrent')}</Button>
              <CoordinateFields coordinates={coordinates} hints={false} paired={false} />
            </div>
            )
          : null}
        <Button type='submit' className='button'>{t('availability.save')}</Button>
      </Form>
    </>
  )
}

/** docs/api/help.md › Availability for volunteers: on or off duty, how far, which kinds, how many alerts a day, and from where. */
export function AvailabilityPage () {
  const { t } = useTranslation()
  const saved = useQuery({ queryKey: AVAILABILITY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/availability', { signal })) })
  // Whether there is a home to measure from; if it cannot be read, the form asks for the place.
  const home = useQuery({ queryKey: ['get', '/api/v1/users/me/location'], queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/location', { signal })) })
  const hasHome = home.data !== undefined && home.data.latitude !== null && home.data.longitude !== null
  return (
    <Page title={t('availability.title')}>
      <p>{t('availability.intro')}</p>
      <ChecksNotice />
      {saved.isPending || home.isPending
        ? <p>{t('common.loading')}</p>
        : saved.isError
          ? <p className='error-text'>{serverProblem(saved.error, t).message} <Button className='link-button' onPress={() => { void saved.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : <AvailabilityForm saved={saved.data} hasHome={hasHome} />}
    </Page>
  )
}
