import type { Database } from '../../db/database.js'
import type { Clock } from '../../lib/clock.js'
import { forbidden } from '../../lib/errors.js'
import { gridCell } from '../../lib/grid.js'
import { hasPermission, type Principal } from '../../lib/principal.js'
import { csvCell, csvLine } from './csv.js'
import { dateRange, periodKind, periodsOf, type DateRange } from './range.js'
import * as reports from './reports.repo.js'
import { CSV_HEADER, VOLUNTEERS_CSV_HEADER, type Summary, type SummaryPeriod, type SummaryQuery } from './reports.schemas.js'
import { amountInCents } from '../../lib/decimal.js'

export const VIEW_REPORTS_REQUIRED = 'view_reports permission required'

/** docs/api/on-behalf.md › Reports for funders: a count from 1 to this minus one is shown as null, so no small group can be singled out. */
export const SUPPRESSED_BELOW = 5

const URGENCIES = ['low', 'medium', 'high', 'urgent'] as const

/** Rows per read of the CSV: large enough that the statement's cost is spread, small enough to hold. */
export const CSV_BATCH = 5000

/** `mileageRateCents`: MILEAGE_RATE in cents (docs/api/visit-checks.md › Hours and mileage). */
export interface ReportSettings { timeZone: string, mapGridMeters: number, mileageRateCents: number }

const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places
const minutes = (seconds: number | null): number | null => seconds === null ? null : round(seconds / 60, 1)
const hours = (seconds: number | null): number | null => seconds === null ? null : round(seconds / 3600, 2)

/** Funders' reports (docs/api/on-behalf.md › Reports for funders): counts over periods, and every request of a range as CSV. */
export class ReportsService {
  constructor (
    private readonly db: Database,
    private readonly settings: ReportSettings,
    private readonly clock: Clock
  ) {}

  /** Before the query is read: a caller without the permission learns nothing about what they asked. */
  authorize (user: Principal): void {
    if (!hasPermission(user, 'view_reports')) throw forbidden(VIEW_REPORTS_REQUIRED)
  }

  range (query: { from?: string, to?: string }): DateRange {
    return dateRange(query, this.clock.now(), this.settings.timeZone)
  }

  async summary (user: Principal, query: SummaryQuery): Promise<Summary> {
    this.authorize(user)
    const range = this.range(query)
    const periods = periodsOf(range, periodKind(query.by), this.settings.timeZone)
    const [created, waits, finished, types, recorded] = await Promise.all([
      reports.withoutJit(this.db, (tx) => reports.createdCounts(tx, periods)),
      reports.withoutJit(this.db, (tx) => reports.waits(tx, periods)),
      reports.withoutJit(this.db, (tx) => reports.finishedCounts(tx, periods)),
      reports.requestTypes(this.db),
      reports.withoutJit(this.db, (tx) => reports.recordedCounts(tx, periods)),
    ])
    const typeName = new Map(types.map((type) => [type.id, type.name]))
    return {
      periods: periods.map((period, index) => {
        const n = index + 1
        const byType: Record<string, number> = Object.fromEntries(types.filter((type) => type.is_active).map((type) => [type.name, 0]))
        const byUrgency: Record<string, number> = Object.fromEntries(URGENCIES.map((name) => [name, 0]))
        for (const row of created) {
          if (row.n !== n) continue
          const name = typeName.get(row.request_type_id)!
          byType[name] = (byType[name] ?? 0) + row.count
          byUrgency[row.urgency] = (byUrgency[row.urgency] ?? 0) + row.count
        }
        const wait = waits.find((row) => row.n === n)
        const ended = finished.find((row) => row.n === n)
        const record = recorded.find((row) => row.n === n)
        return suppress({
          start: period.date,
          requests_created: Object.values(byUrgency).reduce((sum, count) => sum + count, 0),
          requests_completed: ended?.completed ?? 0,
          requests_cancelled: ended?.cancelled ?? 0,
          requests_expired: ended?.expired ?? 0,
          people_helped: ended?.people_helped ?? 0,
          active_volunteers: ended?.active_volunteers ?? 0,
          hours_of_help: hours(ended?.help_seconds ?? 0) ?? 0,
          hours_of_help_recorded: round((record?.minutes ?? 0) / 60, 2),
          distance_km: Number(record?.distance_km ?? 0),
          median_minutes_to_first_offer: minutes(wait?.median_offer_seconds ?? null),
          median_minutes_to_accept: minutes(wait?.median_accept_seconds ?? null),
          by_type: byType,
          by_urgency: byUrgency,
          suppressed: [],
        })
      }),
      suppressed_below: SUPPRESSED_BELOW,
    }
  }

  /** The CSV's file name and its lines, read batch by batch as the response drains (back-pressure). */
  csv (user: Principal, query: { from?: string, to?: string }): { filename: string, lines: AsyncGenerator<string> } {
    this.authorize(user)
    const range = this.range(query)
    return { filename: `requests-${range.from}-${range.to}.csv`, lines: this.csvLines(range) }
  }

  /**
   * docs/api/visit-checks.md › Hours and mileage: one line per volunteer, for reimbursing mileage; the amount in exact
   * decimals (src/lib/decimal.ts amountInCents) from the database's exact sum of kilometres.
   */
  volunteersCsv (user: Principal, query: { from?: string, to?: string }): { filename: string, lines: AsyncGenerator<string> } {
    this.authorize(user)
    const range = this.range(query)
    return { filename: `volunteers-${range.from}-${range.to}.csv`, lines: this.volunteerLines(range) }
  }

  private async * volunteerLines (range: DateRange): AsyncGenerator<string> {
    yield csvLine(VOLUNTEERS_CSV_HEADER)
    const rows = await reports.withoutJit(this.db, (tx) => reports.volunteerTotals(tx, range.start, range.end))
    let chunk = ''
    for (const row of rows) {
      chunk += csvLine([row.volunteer_id, row.name, row.visits, row.minutes, row.distance_km, amountInCents(row.distance_km, this.settings.mileageRateCents)])
    }
    yield chunk
  }

  private async * csvLines (range: DateRange): AsyncGenerator<string> {
    yield csvLine(CSV_HEADER)
    const batch = (after?: reports.CsvPosition): Promise<reports.CsvRow[]> =>
      reports.withoutJit(this.db, (tx) => reports.csvBatch(tx, range.start, range.end, after, CSV_BATCH))
    let next: Promise<reports.CsvRow[]> | undefined = batch()
    while (next !== undefined) {
      const rows: reports.CsvRow[] = await next
      const last = rows.at(-1)
      // The next batch is read while this one is written out (the database and Node overlap), and no further:
      // one batch ahead at most, however slowly the client reads.
      next = rows.length < CSV_BATCH || last === undefined ? undefined : batch({ cursor: last.cursor, id: last.id })
      // Kept from an unhandled rejection while this batch waits for the client; awaited, and so thrown, above.
      next?.catch(() => {})
      // One chunk per batch: a write per row would cost more than the rows themselves.
      let chunk = ''
      for (const row of rows) chunk += this.csvRow(row)
      yield chunk
    }
  }

  /** One line, in CSV_HEADER's order; csvCell only where a value can need quoting or a formula guard. */
  private csvRow (row: reports.CsvRow): string {
    const cell = gridCell(row.latitude, row.longitude, this.settings.mapGridMeters)
    const onBehalf = row.client_id !== null ? 'client' : row.created_by_carer !== null ? 'carer' : ''
    return `${row.id},${row.created_at},${csvCell(row.request_type)},${row.urgency},${row.status},${row.cancel_reason ?? ''},` +
      `${csvCell(row.city)},${csvCell(`${cell.i}:${cell.j}`)},${csvCell(minutes(row.offer_seconds))},${csvCell(minutes(row.accept_seconds))},` +
      `${row.completed_at ?? ''},${csvCell(hours(row.help_seconds))},${row.rating ?? ''},${onBehalf}\r\n`
  }
}

/** Counts of people and of groups from 1 to 4 become null and are named in `suppressed`. */
function suppress (period: SummaryPeriod): SummaryPeriod {
  const hidden: string[] = []
  const small = (count: number | null): boolean => count !== null && count > 0 && count < SUPPRESSED_BELOW
  for (const field of ['people_helped', 'active_volunteers'] as const) {
    if (small(period[field])) {
      period[field] = null
      hidden.push(field)
    }
  }
  for (const group of ['by_type', 'by_urgency'] as const) {
    for (const [name, count] of Object.entries(period[group])) {
      if (small(count)) {
        period[group][name] = null
        hidden.push(`${group}.${name}`)
      }
    }
  }
  return { ...period, suppressed: hidden }
}
