import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

/**
 * src/README.md: the file whose SQL writes each table; `requests` has two more, in the same folder, for docs/api/schedule.md › Confirmation,
 * reminders, expiry and for retention and erasure (requests.repo.ts would pass 300 lines with them); `deliveries` one more for the
 * texts to coordinators' clients (docs/api/on-behalf.md › Texts to a client), for the same reason.
 */
const OWNERS: Record<string, string | readonly string[]> = {
  alert_rounds: 'help/alerts/alerts.repo.ts',
  request_alerts: 'help/alerts/alerts.repo.ts',
  alert_catch_ups: 'help/alerts/catch-up.repo.ts',
  users: 'accounts/users/users.repo.ts',
  clients: 'on-behalf/clients/clients.repo.ts',
  user_roles: 'accounts/roles/roles.repo.ts',
  refresh_tokens: 'accounts/auth/auth.repo.ts',
  auth_codes: 'accounts/auth/auth.repo.ts',
  requests: ['help/requests/requests.repo.ts', 'help/requests/deadlines.repo.ts', 'help/requests/retention.repo.ts'],
  schedule_messages: 'regular-help/schedule/schedule.repo.ts',
  volunteer_responses: 'help/responses/responses.repo.ts',
  ratings: 'help/responses/responses.repo.ts',
  volunteer_availability: 'help/availability/availability.repo.ts',
  notifications: 'messaging/notifications/notifications.repo.ts',
  access_records: 'accounts/access/access.repo.ts',
  user_checks: 'accounts/checks/checks.repo.ts',
  concerns: 'help/concerns/concerns.repo.ts',
  request_visits: 'help/visits/visits.repo.ts',
  deliveries: ['messaging/deliveries/deliveries.repo.ts', 'messaging/deliveries/client-texts.repo.ts', 'messaging/deliveries/text-receipts.repo.ts'],
  push_subscriptions: 'messaging/push/push.repo.ts',
  sms_numbers: 'messaging/sms/sms.repo.ts',
  sms_budget: 'messaging/sms/sms.repo.ts',
  sms_received: 'messaging/sms/sms.repo.ts',
  sms_codes: 'messaging/sms/reply-codes.repo.ts',
  sms_code_misses: 'messaging/sms/reply-codes.repo.ts',
  sms_inbox: 'messaging/sms/sms-inbox.repo.ts',
  sms_sorry: 'messaging/sms/sms-inbox.repo.ts',
  sms_counts: 'messaging/sms/sms-inbox.repo.ts',
  calendar_feeds: 'regular-help/calendar/calendar.repo.ts',
  notification_settings: 'messaging/deliveries/notification-settings.repo.ts',
  request_series: 'regular-help/series/series.repo.ts',
  request_history: 'on-behalf/history/history.repo.ts',
  trusted_people: 'on-behalf/carers/carers.repo.ts',
  request_types: 'help/request-types/request-types.repo.ts',
}

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const SCRIPTS = fileURLToPath(new URL('../../scripts/', import.meta.url))

/**
 * A script writes a table through its owner repo, or says why not in one line at the statement (the write's
 * line or one of the three above it), e.g. `// direct write: set-based, a million rows in one statement`.
 */
const REASON = /(?:\/\/|--) direct write: \S.{9,}/

function sourceFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Where a file's SQL inserts into, updates, deletes from or locks for update a table: the table and the line (from 0). */
function writes (text: string): Array<{ table: string, line: number }> {
  const lineOf = (index: number) => text.slice(0, index).split('\n').length - 1
  const changes = [...text.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+([a-z_]+)/g)].map((m) => ({ table: m[1]!, line: lineOf(m.index) }))
  const locks = [...text.matchAll(/\bFROM\s+([a-z_]+)\b[^`]*?\bFOR (?:NO KEY )?UPDATE\b/g)].map((m) => ({ table: m[1]!, line: lineOf(m.index) }))
  return [...changes, ...locks]
}

/** Tables a file's SQL writes. */
const writtenTables = (text: string): string[] => [...new Set(writes(text).map((write) => write.table))]

describe('table owners (src/README.md)', () => {
  const files = sourceFiles(SRC).filter((file) => !relative(SRC, file).startsWith('db/'))

  it('every table is written by its owner repo only', () => {
    const found: string[] = []
    for (const file of files) {
      const path = relative(SRC, file).split('\\').join('/')
      for (const table of writtenTables(readFileSync(file, 'utf8'))) {
        found.push(table)
        const owners = [OWNERS[table] ?? []].flat()
        assert.ok(owners.includes(path), `${path} writes ${table}, which ${owners.join(' and ') || 'no repo'} owns`)
      }
    }
    // The check reads what it should: every owned table is written somewhere.
    assert.deepEqual([...new Set(found)].sort(), Object.keys(OWNERS).sort())
  })

  it('scripts write tables through the owner repos, or say at the statement why not', () => {
    const scripts = sourceFiles(SCRIPTS)
    assert.ok(scripts.some((file) => file.endsWith('seed.ts')), 'the check reads scripts/')
    const unexplained: string[] = []
    for (const file of scripts) {
      const text = readFileSync(file, 'utf8')
      const lines = text.split('\n')
      for (const { table, line } of writes(text)) {
        if (lines.slice(Math.max(0, line - 3), line + 1).some((nearby) => REASON.test(nearby))) continue
        unexplained.push(`scripts/${relative(SCRIPTS, file).split('\\').join('/')}:${line + 1} writes ${table}: go through ${[OWNERS[table] ?? 'its repo'].flat().join(' or ')}, or say why not in a '// direct write: ...' (or '-- direct write: ...') line at the statement`)
      }
    }
    assert.deepEqual(unexplained, [])
  })
})
