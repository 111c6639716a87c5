import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'

export type By = 'month' | 'week'
export interface Range { from: string, to: string, by: By }

const day = (date: Date): string => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`

/** docs/api/on-behalf.md › Reports for funders's default: from the first day of the month eleven months ago to today (12 months). */
export function defaultRange (now = new Date()): Range {
  return { from: day(new Date(now.getFullYear(), now.getMonth() - 11, 1)), to: day(now), by: 'month' }
}

export function useSummary (range: Range) {
  return useQuery({
    queryKey: ['get', '/api/v1/reports/summary', range],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/reports/summary', { params: { query: range }, signal })),
    retry: false,
  })
}

/**
 * The CSV through the app's own client: the API wants the bearer token, which lives only in this page's memory
 * (api/session.ts), so a plain link could not carry it. The file arrives as a Blob and is saved through an
 * object URL with the name the service gave it (Content-Disposition).
 */
export async function downloadCsv (range: Range): Promise<string> {
  const { data, error, response } = await api.GET('/api/v1/reports/requests.csv', { params: { query: { from: range.from, to: range.to } }, parseAs: 'blob' })
  if (!response.ok || data === undefined) {
    const text = (error as { error?: unknown } | undefined)?.error
    throw new ApiError(response.status, typeof text === 'string' ? text : '')
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `requests-${range.from}-${range.to}.csv`
  const url = URL.createObjectURL(data as unknown as Blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked once the browser has taken the file.
  setTimeout(() => { URL.revokeObjectURL(url) }, 10_000)
  return name
}
