// npm run openapi:export [-- --out path]: writes the OpenAPI 3.1 document the service serves at
// /api/v1/openapi.json to docs/openapi.json. The document comes from the route schemas alone, so the
// app is built on an empty in-memory database that is never queried.
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openPglite } from '../src/db/pglite.js'
import { newSecret } from '../src/lib/tokens.js'

const { out } = parseArgs({ options: { out: { type: 'string' } } }).values
const file = out ?? fileURLToPath(new URL('../docs/openapi.json', import.meta.url))

const db = await openPglite(undefined)
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, jwtSecret: newSecret() })
await app.ready()
await writeFile(file, `${JSON.stringify(app.swagger(), null, 2)}\n`)
await app.close()
await db.close()
process.stdout.write(`wrote ${file}\n`)
