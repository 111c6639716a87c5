// npm run create-admin -- --email admin@example.org --password '...'
// or with ADMIN_EMAIL and ADMIN_PASSWORD in the environment (safer: a password on the command line
// is visible to other users of the machine). Migrates the configured database first, then makes sure
// the account exists and holds role admin; an existing account keeps its password.
import { parseArgs } from 'node:util'
import { configOrExit, fail, openMigrated } from '../src/cli.js'
import { normaliseEmail } from '../src/lib/email.js'
import { ensureAdmin } from '../src/accounts/roles/roles.service.js'

let args: { email?: string | undefined, password?: string | undefined }
try {
  args = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } }).values
} catch (error) {
  fail(`${(error as Error).message}\nusage: npm run create-admin -- --email <address> --password <8 to 128 characters>`)
}

// The arguments take the place of ADMIN_EMAIL and ADMIN_PASSWORD, so they are checked by the same rules.
const config = configOrExit({ ...process.env, ADMIN_EMAIL: args.email ?? process.env.ADMIN_EMAIL, ADMIN_PASSWORD: args.password ?? process.env.ADMIN_PASSWORD })
const admin = config.admin ?? fail('give --email and --password, or set ADMIN_EMAIL and ADMIN_PASSWORD')

const { db, applied } = await openMigrated(config)
if (applied.length > 0) process.stdout.write(`applied ${applied.join(', ')}\n`)
const result = await ensureAdmin(db, admin.email, admin.password, config.scrypt)
  .catch((error: Error) => fail(`cannot create the admin account: ${error.message}`))
await db.close()
process.stdout.write(result.created
  ? `created admin account ${normaliseEmail(admin.email)} (id ${result.id})\n`
  : `account ${normaliseEmail(admin.email)} (id ${result.id}) already existed: it holds role admin now; its password is unchanged\n`)
