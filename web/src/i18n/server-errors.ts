import type { TFunction } from 'i18next'
import { ApiError } from '../api/errors'
import { OFFLINE_ACTION } from '../api/offline'
import { SERVER_ERRORS, UNSTORABLE, type Meaning } from './server-error-texts'

/** One problem to show: the field it belongs to (if any) and its message in the page's language. */
export interface Problem { field?: string, message: string }

/** Texts like "bio must be at most 500 characters long" name their field first. */
const FIELD_FIRST = /^([a-z_]+) must /

/** The meaning of an API text for a form with `fields`, if the catalogue knows the text. */
export function meaningOf (text: string, fields: readonly string[]): Meaning | undefined {
  const entry = SERVER_ERRORS[text]
  if (entry === undefined) return undefined
  const meanings: readonly Meaning[] = Array.isArray(entry) ? entry : [entry as Meaning]
  return meanings.find((meaning) => meaning.field !== undefined && fields.includes(meaning.field)) ?? meanings[0]
}

/** Any failure of a call as one problem: beside its field when the form has it, else for the summary. */
export function serverProblem (error: unknown, t: TFunction, fields: readonly string[] = []): Problem {
  if (!(error instanceof ApiError)) return { message: t('errors.unexpected') }
  if (error.offline) return { message: t(error.text === OFFLINE_ACTION ? 'offline.refused' : 'errors.offline') }
  const known = meaningOf(error.text, fields)
  if (known !== undefined) {
    return known.field !== undefined && fields.includes(known.field) ? { field: known.field, message: t(known.key) } : { message: t(known.key) }
  }
  const unstorable = error.status === 400 ? UNSTORABLE.exec(error.text)?.[1] : undefined
  if (unstorable !== undefined) {
    return fields.includes(unstorable) ? { field: unstorable, message: t('errors.invalidCharacters') } : { message: t('errors.invalidCharacters') }
  }
  const field = FIELD_FIRST.exec(error.text)?.[1]
  if (field !== undefined && fields.includes(field)) return { field, message: t('errors.fieldServer', { detail: error.text }) }
  if (error.status >= 500) return { message: t('errors.server') }
  return { message: error.text !== '' ? t('errors.other', { detail: error.text }) : t('errors.unexpected') }
}
