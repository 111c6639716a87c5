import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { TextInput } from '../../components/fields'
import type { Problem } from '../../i18n/server-errors'
import { readPhone } from '../../lib/phone'

/** What a coordinator types about a client: the same fields when adding a client and when changing one. */
export const DETAILS = ['first_name', 'last_name', 'phone', 'address', 'city', 'needs'] as const
export type Details = Record<typeof DETAILS[number], string>
const OPTIONAL = ['phone', 'address', 'city', 'needs'] as const

/** The problems of what was typed, in the form's order: names required, a phone that is a phone (of `country` when it has no code). */
export function detailProblems (details: Details, t: TFunction, country: string | undefined): Problem[] {
  const problems: Problem[] = []
  if (details.first_name.trim() === '') problems.push({ field: 'first_name', message: t('coordinator.add.errors.firstName') })
  if (details.last_name.trim() === '') problems.push({ field: 'last_name', message: t('coordinator.add.errors.lastName') })
  if (details.phone.trim() !== '' && readPhone(details.phone, country) === undefined) problems.push({ field: 'phone', message: t('errors.phoneInvalid') })
  return problems
}

/**
 * The body's fields: names trimmed, the phone in E.164 (detailProblems refused one that is none). An empty optional
 * field is left out of a new client (`clear` false) and sent as null when changing one (`clear` true), which clears it
 * (PATCH /clients/{id}).
 */
export function detailsBody (details: Details, clear: boolean, country: string | undefined) {
  const optional = Object.fromEntries(OPTIONAL.flatMap((name): Array<[string, string | null]> => {
    const value = name === 'phone' ? readPhone(details.phone, country) ?? details.phone.trim() : details[name].trim()
    return value !== '' ? [[name, value]] : clear ? [[name, null]] : []
  })) as Partial<Record<typeof OPTIONAL[number], string | null>>
  return { first_name: details.first_name.trim(), last_name: details.last_name.trim(), ...optional }
}

/** The record as the form shows it: null as an empty field. */
export const detailsOf = (client: Record<typeof DETAILS[number], string | null>): Details =>
  Object.fromEntries(DETAILS.map((name) => [name, client[name] ?? ''])) as Details

/** The six fields, labelled and hinted as on "Add a new client". */
export function DetailFields ({ details, onChange }: { details: Details, onChange: (details: Details) => void }) {
  const { t } = useTranslation()
  const set = (name: keyof Details) => (value: string) => onChange({ ...details, [name]: value })
  return (
    <>
      <TextInput name='first_name' label={t('coordinator.add.firstName')} autoComplete='off' maxLength={100} value={details.first_name} onChange={set('first_name')} />
      <TextInput name='last_name' label={t('coordinator.add.lastName')} autoComplete='off' maxLength={100} value={details.last_name} onChange={set('last_name')} />
      <TextInput name='phone' type='tel' label={t('coordinator.add.phone')} hint={t('coordinator.add.phoneHint')} autoComplete='off' optional maxLength={50} value={details.phone} onChange={set('phone')} />
      <TextInput name='address' label={t('coordinator.add.address')} hint={t('coordinator.add.addressHint')} autoComplete='off' optional maxLength={500} value={details.address} onChange={set('address')} />
      <TextInput name='city' label={t('coordinator.add.city')} autoComplete='off' optional maxLength={200} value={details.city} onChange={set('city')} />
      <TextInput name='needs' label={t('coordinator.add.needs')} hint={t('coordinator.add.needsHint')} optional multiline maxLength={1000} value={details.needs} onChange={set('needs')} />
    </>
  )
}
