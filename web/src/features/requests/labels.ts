import type { TFunction } from 'i18next'

/** Dates and times in the page's language, in words a person reads aloud well. */
export function formatDateTime (iso: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso))
}

export const statusLabel = (t: TFunction, status: string): string => t(`status.${status}`, { defaultValue: status })
export const urgencyLabel = (t: TFunction, urgency: string | null): string => urgency === null ? '' : t(`urgency.${urgency}`, { defaultValue: urgency })
export const kindLabel = (t: TFunction, id: number, name: string): string => t(`kinds.${id}`, { defaultValue: name })
