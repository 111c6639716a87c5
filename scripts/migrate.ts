// npm run migrate: applies the migrations not yet applied to the configured database (DATABASE_URL,
// or the embedded database in DATA_DIR), then exits. The service also migrates at start-up.
import { configOrExit, openMigrated } from '../src/cli.js'

const { db, applied } = await openMigrated(configOrExit())
await db.close()
process.stdout.write(applied.length === 0 ? 'database is up to date\n' : `applied ${applied.join(', ')}\n`)
