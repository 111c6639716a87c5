import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form, Input, Label, Text, TextField, FieldError } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { Choice } from '../../components/choice'
import { ErrorSummary, fieldId } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { CoordinateFields, useCoordinates } from '../../components/coordinates'
import { useHomeLocation } from '../../components/use-home-location'
import { PlacePicker } from '../../components/map/place-picker'
import { AddressSearch } from '../../components/address-search'
import { useFormProblems } from '../../components/use-form-problems'
import type { paths } from '../../api/schema'
import { useRequestTypes } from '../../api/use-request-types'
import type { Problem } from '../../i18n/server-errors'
import { parseCoordinate } from '../../lib/coordinates'
import { kindLabel } from './labels'

const FIELDS = ['request_type_id', 'title', 'description', 'urgency', 'address', 'city', 'desired_completion_date', 'latitude', 'longitude', 'contact_phone', 'contact_notes'] as const
const URGENCIES = ['low', 'medium', 'high', 'urgent'] as const
type NewRequest = paths['/api/v1/requests']['post']['requestBody']['content']['application/json']

export function AskPage () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const announce = useAnnounce()
  const form = useFormProblems(FIELDS)
  const types = useRequestTypes()
  const [kind, setKind] = useState<string | null>(null)
  const [urgency, setUrgency] = useState<string | null>('medium')
  const coordinates = useCoordinates(form.show)
  const [picking, setPicking] = useState(false)
  const [address, setAddress] = useState('')
  const [city, setCity] = useState('')
  const typedLat = parseCoordinate(coordinates.latitude, 90)
  const typedLon = parseCoordinate(coordinates.longitude, 180)
  const typedPoint = typedLat !== undefined && typedLon !== undefined ? { lat: typedLat, lon: typedLon } : undefined
  const create = useMutation({
    mutationFn: (body: NewRequest) => unwrap(api.POST('/api/v1/requests', { body })),
    onSuccess: (created) => {
      announce(t('ask.sent'))
      void navigate(`/requests/${created.id}`)
    },
    onError: form.fail,
  })

  const homeLocation = useHomeLocation()
  const fromHome = async () => {
    try {
      const home = await homeLocation()
      if (home === undefined) return form.show([{ message: t('ask.noHome') }])
      coordinates.fill(home.latitude, home.longitude)
      announce(t('ask.homeUsed', home))
    } catch (error) {
      form.fail(error)
    }
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (create.isPending) return
    const data = new FormData(event.currentTarget)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    const problems: Problem[] = []
    if (kind === null) problems.push({ field: 'request_type_id', message: t('ask.errors.kind') })
    const title = text('title')
    if (title.length < 5) problems.push({ field: 'title', message: t('ask.errors.title') })
    const description = text('description')
    if (description.length < 10) problems.push({ field: 'description', message: t('ask.errors.description') })
    if (urgency === null) problems.push({ field: 'urgency', message: t('ask.errors.urgency') })
    const address = text('address')
    if (address === '') problems.push({ field: 'address', message: t('ask.errors.address') })
    const point = coordinates.read(problems)
    const when = text('desired_completion_date')
    const whenDate = when === '' ? undefined : new Date(when)
    if (whenDate !== undefined && Number.isNaN(whenDate.getTime())) problems.push({ field: 'desired_completion_date', message: t('ask.errors.when') })
    if (problems.length > 0 || kind === null || urgency === null || point === undefined) return form.show(problems)
    form.clear()
    const optional = (name: string) => text(name) === '' ? {} : { [name]: text(name) }
    create.mutate({
      request_type_id: Number(kind),
      title,
      description,
      urgency: urgency as typeof URGENCIES[number],
      address,
      ...point,
      ...optional('city'),
      ...optional('contact_phone'),
      ...optional('contact_notes'),
      ...(whenDate !== undefined ? { desired_completion_date: whenDate.toISOString() } : {}),
    })
  }

  return (
    <Page title={t('ask.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <p>{t('ask.intro')}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        {types.isError
          ? <p className='error-text' role='alert'>{t('errors.offline')}</p>
          : (
            <Choice
              name='request_type_id'
              label={t('ask.kind')}
              value={kind}
              onChange={setKind}
              options={(types.data ?? []).filter((type) => type.is_active).map((type) => ({ value: String(type.id), label: kindLabel(t, type.id, type.name) }))}
            />
            )}
        <TextInput name='title' label={t('ask.titleField')} hint={t('ask.titleHint')} maxLength={200} />
        <TextInput name='description' label={t('ask.description')} hint={t('ask.descriptionHint')} multiline maxLength={2000} />
        <Choice name='urgency' label={t('ask.urgency')} value={urgency} onChange={setUrgency} options={URGENCIES.map((value) => ({ value, label: t(`urgency.${value}`) }))} />
        <TextField className='field' name='desired_completion_date' id={fieldId('desired_completion_date')}>
          <Label>{t('ask.when')} {t('form.optional')}</Label>
          <Text slot='description' className='hint'>{t('ask.whenHint')}</Text>
          <FieldError className='field-error' />
          <Input type='datetime-local' />
        </TextField>
        <fieldset className='fieldset'>
          <legend>{t('ask.where')}</legend>
          <div className='stack'>
            <TextInput name='address' label={t('profile.address')} hint={t('ask.addressHint')} autoComplete='street-address' maxLength={500} value={address} onChange={setAddress} />
            <TextInput name='city' label={t('profile.city')} autoComplete='address-level2' optional maxLength={200} value={city} onChange={setCity} />
            <p className='hint'>{t('ask.pointHint')}</p>
            <AddressSearch
              address={address}
              city={city}
              onChoose={(place) => { coordinates.fill(place.lat, place.lon); announce(t('geocoder.chosen', { name: place.name })) }}
            />
            <Button className='button secondary' onPress={() => { void fromHome() }}>{t('ask.useHome')}</Button>
            <Button className='button secondary' onPress={() => coordinates.fillFromDevice()}>{t('location.useCurrent')}</Button>
            <Button className='button secondary' aria-expanded={picking} aria-controls={picking ? 'place-picker' : undefined} onPress={() => { setPicking(!picking) }}>
              {picking ? t('map.pickHide') : t('map.pick')}
            </Button>
            {picking
              ? (
                <div id='place-picker'>
                  <PlacePicker start={typedPoint} onChoose={(point) => { coordinates.fill(point.lat, point.lon) }} />
                </div>
                )
              : null}
            <CoordinateFields coordinates={coordinates} />
          </div>
        </fieldset>
        <TextInput name='contact_phone' type='tel' label={t('ask.phone')} hint={t('ask.phoneHint')} autoComplete='tel' optional maxLength={50} />
        <TextInput name='contact_notes' label={t('ask.notes')} hint={t('ask.notesHint')} optional multiline maxLength={2000} />
        <Button type='submit' className='button'>{t('ask.send')}</Button>
      </Form>
    </Page>
  )
}
