import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, type FormEvent } from 'react'
import { Button, Form, Label, Link, Radio, RadioGroup } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { ErrorSummary } from '../../components/error-summary'
import { Page } from '../../components/page'
import { CoordinateFields, useCoordinates } from '../../components/coordinates'
import { useHomeLocation } from '../../components/use-home-location'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem, type Problem } from '../../i18n/server-errors'
import { formatDate, formatDistance } from '../../lib/format'
import { kindText, requestStatus, urgencyText } from '../../i18n/labels'
import { NearbyMap } from './nearby-map'
import '../../components/journeys.css'

const FIELDS = ['latitude', 'longitude', 'radius'] as const
export const RADII = ['1000', '2000', '5000', '10000', '25000', '50000'] as const
const DEFAULT_RADIUS = '5000'
const PAGE_SIZE = '100'

type Nearby = Awaited<ReturnType<typeof searchNearby>>[number]

function searchNearby (lat: string, lon: string, radius: string, signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/requests/nearby', { params: { query: { lat, lon, radius, limit: PAGE_SIZE } }, signal }))
}

/** One request, complete without the map: kind, urgency, distance, status, place, when, and what can be done. */
function NearbyItem ({ item }: { item: Nearby }) {
  const { t, i18n } = useTranslation()
  const headingId = `request-${item.id}-title`
  return (
    <li>
      <article className='card' aria-labelledby={headingId}>
        <h3 id={headingId}><Link href={`/find-help/${item.id}`}>{item.title}</Link></h3>
        <dl className='facts'>
          <div><dt>{t('volunteer.item.kind')}</dt><dd>{kindText(t, item.request_type_name)}</dd></div>
          <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, item.urgency)}</dd></div>
          <div><dt>{t('volunteer.item.distance')}</dt><dd>{t('volunteer.item.away', { distance: formatDistance(item.distance_meters, i18n.language) })}</dd></div>
          <div><dt>{t('volunteer.item.status')}</dt><dd>{requestStatus(t, item.status)}</dd></div>
          {item.city !== '' && item.city !== null ? <div><dt>{t('volunteer.item.place')}</dt><dd>{item.city}</dd></div> : null}
          <div><dt>{t('volunteer.item.asked')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
        </dl>
        {item.status === 'approved'
          ? <Link href={`/find-help/${item.id}`} className='button secondary' aria-label={`${t('volunteer.item.offer')}: ${item.title}`}>{t('volunteer.item.offer')}</Link>
          : <p className='hint'>{item.status === 'pending_moderation' ? t('volunteer.item.notYetOpen') : t('volunteer.item.taken')}</p>}
      </article>
    </li>
  )
}

/**
 * Help needed nearby, as a list that is complete on its own. The search (point and distance) lives
 * in the address, so a reload or the back button keeps it. The point comes from the home location,
 * the device, or typed coordinates; changing the distance searches again at once and keeps focus on
 * the choice, and every answer is announced as "3 requests within 5 km".
 */
/**
 * The page's address as it is at this moment (the router's own value is the one its last render saw): a
 * distance chosen while the home location is being read, and that point once found, both stay.
 */
const currentParams = (): URLSearchParams => new URLSearchParams(window.location.search)

export function FindHelpPage () {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const [params, setParams] = useSearchParams()
  const form = useFormProblems(FIELDS)
  const coordinates = useCoordinates(form.show, { latitude: params.get('lat') ?? '', longitude: params.get('lon') ?? '' })
  const lat = params.get('lat')
  const lon = params.get('lon')
  const radiusParam = params.get('radius')
  const radius = radiusParam !== null && (RADII as readonly string[]).includes(radiusParam) ? radiusParam : DEFAULT_RADIUS
  // List or map, kept in the address like the search, so that a reload or the back button keeps it.
  const view = params.get('view') === 'map' ? 'map' : 'list'
  const results = useQuery({
    queryKey: ['get', '/api/v1/requests/nearby', { lat, lon, radius }],
    queryFn: ({ signal }) => searchNearby(lat ?? '', lon ?? '', radius, signal),
    enabled: lat !== null && lon !== null,
  })

  const announced = useRef<unknown>(undefined)
  useEffect(() => {
    if (results.data === undefined || announced.current === results.data) return
    announced.current = results.data
    announce(t('volunteer.find.found', { count: results.data.length, distance: formatDistance(Number(radius), i18n.language) }))
  }, [results.data, radius, announce, t, i18n.language])
  useEffect(() => {
    if (results.error !== null) announce(serverProblem(results.error, t).message)
  }, [results.error, announce, t])

  const searchFrom = (latValue: number, lonValue: number) => {
    form.clear()
    coordinates.fill(latValue, lonValue)
    setParams(() => {
      const next = currentParams()
      next.set('lat', String(latValue))
      next.set('lon', String(lonValue))
      // The distance searched is always in the address, so that it can be kept and shared.
      if (!next.has('radius')) next.set('radius', DEFAULT_RADIUS)
      return next
    }, { replace: false })
  }

  const homeLocation = useHomeLocation()
  const fromHome = async () => {
    try {
      const home = await homeLocation()
      // Linked to the typed point, the nearest control that fixes it (the summary takes focus).
      if (home === undefined) return form.show([{ field: 'latitude', message: t('volunteer.find.noHome') }])
      announce(t('volunteer.find.fromHome'))
      searchFrom(home.latitude, home.longitude)
    } catch (error) {
      form.show([serverProblem(error, t)])
    }
  }

  const fromDevice = () => coordinates.locate((lat, lon) => {
    announce(t('volunteer.find.fromDevice'))
    searchFrom(Number(lat), Number(lon))
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const problems: Problem[] = []
    const point = coordinates.read(problems)
    if (point === undefined) return form.show(problems)
    searchFrom(point.latitude, point.longitude)
  }

  // A new distance searches again from the same point; focus stays on the choice.
  const changeRadius = (value: string) => {
    setParams(() => {
      const next = currentParams()
      next.set('radius', value)
      return next
    }, { replace: true })
  }
  /** The address of this search shown as a list or as a map. */
  const shownAsHref = (as: 'list' | 'map') => {
    const next = new URLSearchParams(params)
    if (as === 'map') next.set('view', 'map')
    else next.delete('view')
    return `/find-help?${next.toString()}`
  }

  const distance = formatDistance(Number(radius), i18n.language)
  return (
    <Page title={t('volunteer.find.title')} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <p>{t('volunteer.find.intro')}</p>
      <section aria-labelledby='where-heading'>
        <h2 id='where-heading'>{t('volunteer.find.where')}</h2>
        <ul className='actions'>
          <li><Button className='button secondary' onPress={() => { void fromHome() }}>{t('volunteer.find.useHome')}</Button></li>
          <li><Button className='button secondary' onPress={fromDevice}>{t('location.useCurrent')}</Button></li>
        </ul>
        <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack' aria-labelledby='typed-heading'>
          <h3 id='typed-heading' className='small-heading'>{t('volunteer.find.typed')}</h3>
          <CoordinateFields coordinates={coordinates} />
          <Button type='submit' className='button'>{t('volunteer.find.search')}</Button>
        </Form>
        <RadioGroup className='radios' value={radius} onChange={changeRadius} orientation='horizontal'>
          <Label className='legend'>{t('volunteer.find.radius')}</Label>
          <div className='radio-options'>
            {RADII.map((value) => (
              <Radio key={value} value={value} className='radio'><span className='radio-mark' aria-hidden='true' />{t('volunteer.find.within', { distance: formatDistance(Number(value), i18n.language) })}</Radio>
            ))}
          </div>
        </RadioGroup>
      </section>
      <section aria-labelledby='results-heading'>
        <h2 id='results-heading'>{t('volunteer.find.results')}</h2>
        {lat === null || lon === null
          ? <p>{t('volunteer.find.prompt')}</p>
          : (
            <>
              {/* Two views of one search, as links (the address holds the view): lighter than tabs, and the back button works. */}
              <nav aria-label={t('volunteer.find.showAs')} className='view-switch'>
                <ul>
                  {(['list', 'map'] as const).map((as) => (
                    <li key={as}>
                      <Link href={shownAsHref(as)} aria-current={view === as ? 'page' : undefined}>{as === 'list' ? t('volunteer.find.asList') : t('volunteer.find.asMap')}</Link>
                    </li>
                  ))}
                </ul>
              </nav>
              {view === 'list'
                ? results.isPending
                  ? <p>{t('common.loading')}</p>
                  : results.isError
                    ? <p className='error-text'>{serverProblem(results.error, t).message} <Button className='link-button' onPress={() => { void results.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
                    : results.data.length === 0
                      ? <p>{t('volunteer.find.none', { distance })}</p>
                      : (
                        <>
                          <p>{t('volunteer.find.found', { count: results.data.length, distance })}</p>
                          <ul className='cards'>{results.data.map((item) => <NearbyItem key={item.id} item={item} />)}</ul>
                        </>
                        )
                : (
                  <>
                    {/* The list's count over the map too: the two views of one search say the same. */}
                    {results.data !== undefined ? <p>{results.data.length === 0 ? t('volunteer.find.none', { distance }) : t('volunteer.find.found', { count: results.data.length, distance })}</p> : null}
                    <NearbyMap lat={Number(lat)} lon={Number(lon)} radius={Number(radius)} />
                  </>
                  )}
            </>
            )}
      </section>
    </Page>
  )
}
