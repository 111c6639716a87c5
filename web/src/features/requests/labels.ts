import type { TFunction } from 'i18next'

export const statusLabel = (t: TFunction, status: string): string => t(`status.${status}`, { defaultValue: status })
export const urgencyLabel = (t: TFunction, urgency: string | null): string => urgency === null ? '' : t(`urgency.${urgency}`, { defaultValue: urgency })
export const kindLabel = (t: TFunction, id: number, name: string): string => t(`kinds.${id}`, { defaultValue: name })
