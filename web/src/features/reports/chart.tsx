import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { localeOf } from '../../lib/format'

export interface ChartPeriod { label: string, short: string, created: number, completed: number }

const HEIGHT = 220
const TOP = 12
const BOTTOM = 40
const LEFT = 36
const SLOT = 28

/**
 * The summary as plain SVG (no chart library: a dozen rectangles do not need one, and the page stays lazy): each
 * period along, created and completed side by side, told apart by fill and pattern as well as colour, and by
 * the legend. Its text alternative names what it shows and the highest figures; every figure is in the table.
 */
export function SummaryChart ({ periods, by }: { periods: ChartPeriod[], by: 'month' | 'week' }) {
  const { t, i18n } = useTranslation()
  const id = useId()
  const number = new Intl.NumberFormat(localeOf(i18n.language))
  const max = Math.max(1, ...periods.flatMap((period) => [period.created, period.completed]))
  const scale = (value: number) => (value / max) * (HEIGHT - TOP - BOTTOM)
  const width = LEFT + periods.length * SLOT + 8
  // Label every period when they fit, else every fourth (weeks), so that labels never overlap.
  const every = periods.length > 16 ? 4 : 1
  const created = periods.reduce((sum, period) => sum + period.created, 0)
  const completed = periods.reduce((sum, period) => sum + period.completed, 0)
  const busiest = periods.reduce<ChartPeriod | undefined>((best, period) => best === undefined || period.created > best.created ? period : best, undefined)
  const description = periods.length === 0
    ? t('reports.chart.empty')
    : t(by === 'week' ? 'reports.chart.descWeeks' : 'reports.chart.descMonths', {
      count: periods.length,
      first: periods[0]?.label ?? '',
      last: periods.at(-1)?.label ?? '',
      created: number.format(created),
      completed: number.format(completed),
      busiest: busiest?.label ?? '',
      most: number.format(busiest?.created ?? 0),
    })
  const ticks = [0, Math.round(max / 2), max].filter((value, index, all) => all.indexOf(value) === index)
  return (
    <figure className='report-chart'>
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} role='img' aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} preserveAspectRatio='xMinYMin meet'>
        <title id={`${id}-title`}>{t('reports.chart.title')}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <defs>
          <pattern id={`${id}-hatch`} width='6' height='6' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>
            <rect width='6' height='6' fill='#ffffff' />
            <rect width='3' height='6' fill='#00703c' />
          </pattern>
        </defs>
        {ticks.map((value) => (
          <g key={value}>
            <line x1={LEFT} x2={width} y1={HEIGHT - BOTTOM - scale(value)} y2={HEIGHT - BOTTOM - scale(value)} stroke='#b1b4b6' strokeWidth='1' />
            <text x={LEFT - 4} y={HEIGHT - BOTTOM - scale(value) + 4} textAnchor='end' fontSize='11' fill='#0b0c0c'>{number.format(value)}</text>
          </g>
        ))}
        {periods.map((period, index) => {
          const x = LEFT + index * SLOT + 4
          return (
            <g key={period.label}>
              <rect x={x} width='10' y={HEIGHT - BOTTOM - scale(period.created)} height={scale(period.created)} fill='#1d70b8' />
              <rect x={x + 10} width='10' y={HEIGHT - BOTTOM - scale(period.completed)} height={scale(period.completed)} fill={`url(#${id}-hatch)`} stroke='#00703c' strokeWidth={period.completed > 0 ? 1 : 0} />
              {index % every === 0 ? <text x={x + 10} y={HEIGHT - BOTTOM + 14} textAnchor='middle' fontSize='11' fill='#0b0c0c'>{period.short}</text> : null}
            </g>
          )
        })}
        <line x1={LEFT} x2={width} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} stroke='#0b0c0c' strokeWidth='1' />
      </svg>
      <figcaption>
        <ul className='report-legend'>
          <li><span className='swatch created' aria-hidden='true' />{t('reports.created')}</li>
          <li><span className='swatch completed' aria-hidden='true' />{t('reports.completed')}</li>
        </ul>
      </figcaption>
    </figure>
  )
}
