import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { Button, Form, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { updateSessionUser } from '../../api/session'
import { MY_ROLES_KEY } from '../../api/use-my-roles'
import { useSuccess } from '../../components/success-banner'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { CoordinateFields, useCoordinates } from '../../components/coordinates'
import { useFormProblems } from '../../components/use-form-problems'
import { roleName } from '../../i18n/labels'
import { serverProblem, type Problem } from '../../i18n/server-errors'
import { ChangePassword } from './change-password'
import { SignOutEverywhere } from './sign-out'
import { useAccountSettings } from '../../api/account-settings'
import { readPhone } from '../../lib/phone'
import { OWN_PHONE_KEY } from '../../api/phone'
import { PhoneTexts } from './phone-texts'

const DETAIL_FIELDS = ['first_name', 'last_name', 'phone', 'address', 'city', 'bio'] as const
const LOCATION_FIELDS = ['latitude', 'longitude'] as const
const ME = ['get', '/api/v1/users/me'] as const

type Details = { first_name: string, last_name: string, phone: string | null, address: string | null, city: string | null, bio: string | null }

function DetailsForm ({ profile }: { profile: Details }) {
  const { t } = useTranslation()
  const success = useSuccess()
  const client = useQueryClient()
  const form = useFormProblems(DETAIL_FIELDS)
  const country = useAccountSettings().data?.phone_country
  const save = useMutation({
    mutationFn: (body: Details) => unwrap(api.PATCH('/api/v1/users/me', { body })),
    onSuccess: async (_answer, body) => {
      updateSessionUser({ first_name: body.first_name, last_name: body.last_name })
      // A changed phone is unconfirmed again (docs/api/messaging.md › Texts): the texts section reads it anew.
      await Promise.all([client.invalidateQueries({ queryKey: ME }), client.invalidateQueries({ queryKey: OWN_PHONE_KEY })])
      success(t('profile.saved'))
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (save.isPending) return
    const data = new FormData(event.currentTarget)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    const orNull = (name: string) => text(name) === '' ? null : text(name)
    const typedPhone = orNull('phone')
    const phone = typedPhone === null ? null : readPhone(typedPhone, country)
    const body: Details = { first_name: text('first_name'), last_name: text('last_name'), phone: phone ?? null, address: orNull('address'), city: orNull('city'), bio: orNull('bio') }
    const problems: Problem[] = []
    if (body.first_name === '') problems.push({ field: 'first_name', message: t('errors.firstNameRequired') })
    if (body.last_name === '') problems.push({ field: 'last_name', message: t('errors.lastNameRequired') })
    if (phone === undefined) problems.push({ field: 'phone', message: t('errors.phoneInvalid') })
    if (problems.length > 0) return form.show(problems)
    form.clear()
    save.mutate(body)
  }
  return (
    <section aria-labelledby='details-heading'>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <h2 id='details-heading'>{t('profile.details')}</h2>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <TextInput name='first_name' label={t('account.firstName')} autoComplete='given-name' defaultValue={profile.first_name} />
        <TextInput name='last_name' label={t('account.lastName')} autoComplete='family-name' defaultValue={profile.last_name} />
        <TextInput name='phone' type='tel' label={t('account.phone')} hint={t('account.phoneHint')} autoComplete='tel' defaultValue={profile.phone ?? ''} optional />
        <TextInput name='address' label={t('profile.address')} autoComplete='street-address' defaultValue={profile.address ?? ''} optional maxLength={500} />
        <TextInput name='city' label={t('profile.city')} autoComplete='address-level2' defaultValue={profile.city ?? ''} optional maxLength={200} />
        <TextInput name='bio' label={t('profile.bio')} hint={t('profile.bioHint')} defaultValue={profile.bio ?? ''} optional multiline maxLength={500} />
        <Button type='submit' className='button'>{t('profile.saveDetails')}</Button>
      </Form>
    </section>
  )
}

function LocationForm () {
  const { t } = useTranslation()
  const success = useSuccess()
  const form = useFormProblems(LOCATION_FIELDS)
  const coordinates = useCoordinates(form.show)
  const save = useMutation({
    mutationFn: (body: { latitude: number, longitude: number }) => unwrap(api.POST('/api/v1/users/me/location', { body })),
    onSuccess: () => { success(t('profile.locationSaved')) },
    onError: form.fail,
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (save.isPending) return
    const problems: Problem[] = []
    const point = coordinates.read(problems)
    if (point === undefined) return form.show(problems)
    form.clear()
    save.mutate(point)
  }
  return (
    <section aria-labelledby='location-heading'>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <h2 id='location-heading'>{t('profile.location')}</h2>
      <p className='hint' id='location-intro'>{t('profile.locationIntro')}</p>
      <Button className='button secondary' onPress={() => coordinates.fillFromDevice(form.clear)}>{t('location.useCurrent')}</Button>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <CoordinateFields coordinates={coordinates} />
        <Button type='submit' className='button'>{t('profile.saveLocation')}</Button>
      </Form>
    </section>
  )
}

/** Under EMAIL_VERIFICATION=code only: elsewhere no code was ever sent, and "not confirmed" would lead nowhere. */
function EmailNotConfirmed ({ verified }: { verified: boolean }) {
  const { t } = useTranslation()
  const settings = useAccountSettings(!verified)
  if (verified || settings.data?.email_verification !== 'code') return null
  return <p>{t('verify.notYet')} <Link href='/verify-email'>{t('verify.link')}</Link></p>
}

function Roles () {
  const { t } = useTranslation()
  const roles = useQuery({ queryKey: MY_ROLES_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/roles', { signal })) })
  return (
    <section aria-labelledby='roles-heading'>
      <h2 id='roles-heading'>{t('profile.roles')}</h2>
      {roles.isPending
        ? <p>{t('common.loading')}</p>
        : roles.isError
          ? <p className='error-text'>{serverProblem(roles.error, t, []).message}</p>
          : (
            <ul>
              {roles.data.map((role) => <li key={role.id}>{roleName(t, role.name)}</li>)}
            </ul>
            )}
    </section>
  )
}

export function ProfilePage () {
  const { t } = useTranslation()
  const me = useQuery({ queryKey: ME, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me', { signal })) })
  return (
    <Page title={t('profile.title')}>
      {me.isPending
        ? <p>{t('common.loading')}</p>
        : me.isError
          ? <p className='error-text' role='alert'>{serverProblem(me.error, t, []).message}</p>
          : (
            <>
              <p>{t('profile.signedInAs', { email: me.data.email })} {t('profile.number', { id: me.data.id })}</p>
              <EmailNotConfirmed verified={me.data.email_verified} />
              <DetailsForm profile={me.data} />
              {/* Who has seen the phone and address above (docs/privacy.md › Access records). */}
              <p><Link href='/profile/access-log'>{t('accessLog.linkProfile')}</Link></p>
              <PhoneTexts />
            </>
            )}
      <LocationForm />
      <ChangePassword />
      <Roles />
      <section aria-labelledby='concerns-heading'>
        <h2 id='concerns-heading'>{t('concerns.mine.title')}</h2>
        <p>{t('concerns.mine.profileText')} <Link href='/concerns/mine'>{t('concerns.mine.profileLink')}</Link></p>
      </section>
      <section aria-labelledby='notification-settings-heading'>
        <h2 id='notification-settings-heading'>{t('settings.nav')}</h2>
        <p><Link href='/settings/notifications'>{t('settings.profileLink')}</Link></p>
      </section>
      <SignOutEverywhere />
    </Page>
  )
}
