// npm run retention: one run of the retention job (docs/privacy.md › `RETENTION_DAYS`) on the configured database, then exits.
// The service already runs it at start-up and hourly; this is for a run on demand, e.g. right after
// lowering RETENTION_DAYS. `--batch N` sets the requests per transaction (default 200).
import { configOrExit, fail, openMigrated } from '../src/cli.js'
import { RETENTION_BATCH, RetentionJob } from '../src/data-protection/privacy/retention.js'

const config = configOrExit()
const batchArg = process.argv.indexOf('--batch')
const batchSize = batchArg === -1 ? RETENTION_BATCH : Number(process.argv[batchArg + 1])
if (!Number.isSafeInteger(batchSize) || batchSize < 1) fail('--batch needs a whole number of at least 1')
const { db } = await openMigrated(config)
const log = {
  info: (fields: Record<string, unknown>, message: string) => process.stdout.write(`${message} ${JSON.stringify(fields)}\n`),
  error: (fields: Record<string, unknown>, message: string) => process.stderr.write(`${message} ${String(fields.err)}\n`),
}
const job = new RetentionJob(db, {
  retentionDays: config.retentionDays, notificationRetentionDays: config.notificationRetentionDays, clientRetentionDays: config.clientRetentionDays, mapGridMeters: config.mapGridMeters, batchSize,
}, log)
if (!job.enabled) fail('RETENTION_DAYS, NOTIFICATION_RETENTION_DAYS and CLIENT_RETENTION_DAYS are all 0 (keep everything): nothing to do')
await job.runOnce()
await db.close()
