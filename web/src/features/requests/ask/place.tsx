import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { api } from '../../../api/client'
import { unwrap } from '../../../api/errors'
import { AddressSearch } from '../../../components/address-search'
import { useAnnounce } from '../../../components/announcer'
import { TextInput } from '../../../components/fields'
import { useMapSettings } from '../../../components/map'
import { PlacePicker } from '../../../components/map/place-picker'
import { useDeviceLocation } from '../../../components/coordinates'
import { useFormProblems } from '../../../components/use-form-problems'
import { useHomeLocation } from '../../../components/use-home-location'
import type { Problem } from '../../../i18n/server-errors'
import { parseCoordinate } from '../../../lib/coordinates'
import { formatCoordinate } from '../../../lib/format'
import { PLACES, pointOf, useAskingFor, useStep, type Answers, type PlaceWay } from './answers'
import { ME } from './questions'
import { QuestionChoice, QuestionHeading, StepPage, useAskWords } from './step'

export const HOME_LOCATION = ['get', '/api/v1/users/me/location'] as const

/**
 * "Where do you need help?": at home first when the profile has a home, then where the person is
 * now, a map, a typed address (only with a geocoder), and coordinates last, for the few who have them.
 */
export function WhereStep () {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const announce = useAnnounce()
  const step = useStep('where')
  const { client } = useAskingFor()
  const form = useFormProblems(['place'])
  // A client's home is the client's (docs/api/on-behalf.md › Coordinators and clients), never the coordinator's.
  const home = useQuery({ queryKey: HOME_LOCATION, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/location', { signal })), enabled: client === undefined })
  const settings = useMapSettings()
  const homeLocation = useHomeLocation()
  // A refusal of the device is fixed by choosing another way: the summary links to the choice.
  const locate = useDeviceLocation((problems: Problem[]) => form.show(problems.map((problem) => ({ ...problem, field: 'place' }))))
  const words = useAskWords()
  const question = words('placeQuestion')
  if ((client === undefined && home.isPending) || settings.isPending) return <p>{t('common.loading')}</p>

  const clientHome = client?.latitude != null && client.longitude != null ? { latitude: client.latitude, longitude: client.longitude } : undefined
  // "At my home" is the signed-in person's home: for a client it is the client's, for a carer's person not offered.
  const hasHome = client !== undefined ? clientHome !== undefined : home.data?.latitude != null && home.data.longitude != null && step.answers.forUser === undefined
  // The coordinator's device is not where the client is: "where I am now" is only for oneself.
  const ways = PLACES.filter((way) => (way !== 'home' || hasHome) && (way !== 'here' || client === undefined) && (way !== 'search' || settings.data?.geocoder_url != null))
  const chosen = step.answers.place !== undefined && ways.includes(step.answers.place) ? step.answers.place : null
  const go = (patch: Partial<Answers>) => {
    form.clear()
    step.update(patch)
    void navigate(step.next({ ...step.answers, ...patch }))
  }
  const proceed = async (way: PlaceWay) => {
    if (way === 'home') {
      const point = client !== undefined ? clientHome : await homeLocation()
      if (point === undefined) return form.show([{ field: 'place', message: t('ask.noHome') }])
      announce(t('ask.homeUsed', { latitude: formatCoordinate(point.latitude, i18n.language), longitude: formatCoordinate(point.longitude, i18n.language) }))
      return go({ place: way, latitude: String(point.latitude), longitude: String(point.longitude) })
    }
    if (way === 'here') {
      return locate((latitude, longitude) => {
        announce(t('location.found', { latitude: formatCoordinate(latitude, i18n.language), longitude: formatCoordinate(longitude, i18n.language) }))
        go({ place: way, latitude, longitude })
      })
    }
    // A point found by search must be found again for this way; the map and coordinates start from the old one.
    go(way === 'search' && step.answers.place !== 'search' ? { place: way, latitude: undefined, longitude: undefined } : { place: way })
  }
  const onContinue = () => {
    if (chosen === null) return form.show([{ field: 'place', message: words('errors.place') }])
    proceed(chosen).catch(form.fail)
  }
  return (
    <StepPage question={question} back={step.back} form={form} onContinue={onContinue}>
      <QuestionChoice
        name='place'
        label={question}
        hint={words('placeHint')}
        value={chosen}
        onChange={(value) => step.update({ place: value as PlaceWay })}
        options={ways.map((way) => client !== undefined && way === 'home'
          ? { value: way, label: t('coordinator.ask.home', { name: client.first_name }), description: [client.address, client.city].filter(Boolean).join(', ') || t('coordinator.ask.homeHint') }
          : { value: way, label: t(`ask.place.${way}`), description: t(`ask.place.${way}Hint`) })}
      />
    </StepPage>
  )
}

/** The map, for those who chose it: the place under the cross is the answer. */
export function MapStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const step = useStep('map')
  const form = useFormProblems([])
  const point = pointOf(step.answers)
  const onContinue = () => {
    if (point === undefined) return form.show([{ message: t('ask.errors.map') }])
    form.clear()
    void navigate(step.next(step.answers))
  }
  return (
    <StepPage question={t('map.pick')} back={step.back} form={form} onContinue={onContinue}>
      <QuestionHeading>{t('map.pick')}</QuestionHeading>
      <PlacePicker start={point} onChoose={(chosen) => step.update({ latitude: String(chosen.lat), longitude: String(chosen.lon) })} />
    </StepPage>
  )
}

export function CoordinatesStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const step = useStep('coordinates')
  const form = useFormProblems(['latitude', 'longitude'])
  const question = t('ask.place.coordinatesQuestion')
  const onContinue = () => {
    const problems: Problem[] = []
    if (parseCoordinate(step.answers.latitude ?? '', 90) === undefined) problems.push({ field: 'latitude', message: t('errors.latitudeInvalid') })
    if (parseCoordinate(step.answers.longitude ?? '', 180) === undefined) problems.push({ field: 'longitude', message: t('errors.longitudeInvalid') })
    if (problems.length > 0) return form.show(problems)
    form.clear()
    void navigate(step.next(step.answers))
  }
  return (
    <StepPage question={question} back={step.back} form={form} onContinue={onContinue}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <div className='pair'>
          <TextInput name='latitude' label={t('location.latitude')} hint={t('location.latitudeHint')} inputMode='decimal' value={step.answers.latitude ?? ''} onChange={(value) => step.update({ latitude: value })} />
          <TextInput name='longitude' label={t('location.longitude')} hint={t('location.longitudeHint')} inputMode='decimal' value={step.answers.longitude ?? ''} onChange={(value) => step.update({ longitude: value })} />
        </div>
      </fieldset>
    </StepPage>
  )
}

/**
 * The address volunteers will look for. At home it starts as the profile's address (asked once, WCAG
 * 3.3.7); with "type the address" the geocoder finds the point from it on this page.
 */
export function AddressStep () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const announce = useAnnounce()
  const step = useStep('address')
  const { client } = useAskingFor()
  const form = useFormProblems(['address', 'city'])
  const fromHome = step.answers.place === 'home' && step.answers.address === undefined
  const me = useQuery({ queryKey: ME, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me', { signal })), enabled: fromHome && client === undefined })
  const question = t('ask.addressQuestion')
  if (fromHome && client === undefined && me.isPending) return <p>{t('common.loading')}</p>
  // The client's address on record, or the profile's (asked once, WCAG 3.3.7); a client's is offered whatever the way.
  const home = client !== undefined ? client : me.data
  const offered = fromHome || (client !== undefined && step.answers.address === undefined)
  const address = step.answers.address ?? (offered ? home?.address ?? '' : '')
  const city = step.answers.city ?? (offered ? home?.city ?? '' : '')
  const searching = step.answers.place === 'search'
  const point = pointOf(step.answers)
  const onContinue = () => {
    if (address.trim() === '') return form.show([{ field: 'address', message: t('ask.errors.address') }])
    if (point === undefined) return form.show([{ field: 'address', message: t('ask.errors.found') }])
    form.clear()
    const patch = { address: address.trim(), city: city.trim() }
    step.update(patch)
    void navigate(step.next({ ...step.answers, ...patch }))
  }
  return (
    <StepPage question={question} back={step.back} form={form} onContinue={onContinue}>
      <fieldset className='fieldset question-fieldset'>
        <legend><QuestionHeading>{question}</QuestionHeading></legend>
        <div className='stack'>
          <TextInput name='address' label={t('profile.address')} hint={t('ask.addressHint')} autoComplete='street-address' maxLength={500} value={address} onChange={(value) => step.update({ address: value, city })} />
          <TextInput name='city' label={t('profile.city')} autoComplete='address-level2' optional maxLength={200} value={city} onChange={(value) => step.update({ city: value, address })} />
          {searching
            ? (
              <>
                <AddressSearch
                  address={address}
                  city={city}
                  onChoose={(place) => {
                    step.update({ latitude: String(place.lat), longitude: String(place.lon), address, city })
                    announce(t('geocoder.chosen', { name: place.name }))
                  }}
                />
                {point !== undefined ? <p>{t('map.chosen', { latitude: point.lat, longitude: point.lon })}</p> : null}
              </>
              )
            : null}
        </div>
      </fieldset>
    </StepPage>
  )
}
