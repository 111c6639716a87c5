import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { Choice } from '../../components/choice'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem, type Problem } from '../../i18n/server-errors'
import { parseCoordinate } from '../account/profile'
import { statusLabel, urgencyLabel } from '../requests/labels'

const FIELDS = ['latitude', 'longitude', 'radius'] as const
const RADII = ['1000', '2000', '5000', '10000', '25000', '50000'] as const

/** "about 300 m" / "about 1.2 km", in the page's language. */
export function formatDistance (meters: number, language: string): string {
  const locale = language === 'de' ? 'de-DE' : 'en-GB'
  if (meters < 1000) {
    const rounded = Math.max(10, Math.round(meters / 10) * 10)
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 }).format(rounded)
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 }).format(meters / 1000)
}

/**
 * Help needed nearby: a search form (the point and the radius) and the complete list of what it
 * finds. The search lives in the address (?lat=&lon=&radius=), so it survives a reload and the back
 * button; a new search keeps focus where it is and says how many it found.
 */
export function NearbyPage () {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const [params, setParams] = useSearchParams()
  const form = useFormProblems(FIELDS)
  const [latitude, setLatitude] = useState(params.get('lat') ?? '')
  const [longitude, setLongitude] = useState(params.get('lon') ?? '')
  const [radius, setRadius] = useState<string | null>(params.get('radius') ?? '5000')
  const search = { lat: params.get('lat'), lon: params.get('lon'), radius: params.get('radius') ?? '5000' }
  const ready = search.lat !== null && search.lon !== null
  const results = useQuery({
    queryKey: ['get', '/api/v1/requests/nearby', search],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/nearby', { params: { query: { lat: search.lat ?? '', lon: search.lon ?? '', radius: search.radius, limit: '50' } }, signal })),
    enabled: ready,
  })
  const lastAnnounced = useRef<unknown>(undefined)
  useEffect(() => {
    if (results.data === undefined || lastAnnounced.current === results.data) return
    lastAnnounced.current = results.data
    announce(t('nearby.found', { count: results.data.length, distance: formatDistance(Number(search.radius), i18n.language) }))
  }, [results.data, search.radius, announce, t, i18n.language])

  const useCurrent = () => {
    if (!('geolocation' in navigator)) return form.show([{ message: t('location.unavailable') }])
    navigator.geolocation.getCurrentPosition((position) => {
      setLatitude(position.coords.latitude.toFixed(5))
      setLongitude(position.coords.longitude.toFixed(5))
      announce(t('location.found', { latitude: position.coords.latitude.toFixed(5), longitude: position.coords.longitude.toFixed(5) }))
    }, () => form.show([{ message: t('location.denied') }]), { timeout: 15000 })
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const lat = parseCoordinate(latitude, 90)
    const lon = parseCoordinate(longitude, 180)
    const problems: Problem[] = []
    if (lat === undefined) problems.push({ field: 'latitude', message: t('errors.latitudeInvalid') })
    if (lon === undefined) problems.push({ field: 'longitude', message: t('errors.longitudeInvalid') })
    if (lat === undefined || lon === undefined) return form.show(problems)
    form.clear()
    setParams({ lat: String(lat), lon: String(lon), radius: radius ?? '5000' })
  }

  return (
    <Page title={t('nearby.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <section aria-labelledby='search-heading' role='search'>
        <h2 id='search-heading'>{t('nearby.where')}</h2>
        <Button className='button secondary' onPress={useCurrent}>{t('location.useCurrent')}</Button>
        <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
          <div className='pair'>
            <TextInput name='latitude' label={t('location.latitude')} hint={t('location.latitudeHint')} inputMode='decimal' value={latitude} onChange={setLatitude} />
            <TextInput name='longitude' label={t('location.longitude')} hint={t('location.longitudeHint')} inputMode='decimal' value={longitude} onChange={setLongitude} />
          </div>
          <Choice name='radius' label={t('nearby.radius')} value={radius} onChange={setRadius} options={RADII.map((value) => ({ value, label: t('nearby.within', { distance: formatDistance(Number(value), i18n.language) }) }))} />
          <Button type='submit' className='button'>{t('nearby.search')}</Button>
        </Form>
      </section>
      <section aria-labelledby='results-heading'>
        <h2 id='results-heading' tabIndex={-1}>{t('nearby.results')}</h2>
        {!ready
          ? <p>{t('nearby.start')}</p>
          : results.isPending
            ? <p>{t('common.loading')}</p>
            : results.isError
              ? <p className='error-text' role='alert'>{serverProblem(results.error, t, []).message}</p>
              : results.data.length === 0
                ? <p>{t('nearby.none', { distance: formatDistance(Number(search.radius), i18n.language) })}</p>
                : (
                  <>
                    <p>{t('nearby.found', { count: results.data.length, distance: formatDistance(Number(search.radius), i18n.language) })}</p>
                    <ul className='cards'>
                      {results.data.map((item) => (
                        <li key={item.id} className='card'>
                          <h3><Link href={`/requests/${item.id}`}>{item.title}</Link></h3>
                          <dl className='facts'>
                            <div><dt>{t('nearby.distance')}</dt><dd>{t('nearby.about', { distance: formatDistance(item.distance_meters, i18n.language) })}</dd></div>
                            <div><dt>{t('request.kind')}</dt><dd>{item.request_type_name}</dd></div>
                            <div><dt>{t('request.urgency')}</dt><dd>{urgencyLabel(t, item.urgency)}</dd></div>
                            <div><dt>{t('request.status')}</dt><dd>{statusLabel(t, item.status)}</dd></div>
                            {item.city !== null ? <div><dt>{t('profile.city')}</dt><dd>{item.city}</dd></div> : null}
                          </dl>
                        </li>
                      ))}
                    </ul>
                  </>
                  )}
      </section>
    </Page>
  )
}
