// npm run openapi:lint: lints the OpenAPI document buildApp serves with Redocly's strict rules (every
// finding an error) and prints each finding; exits 1 if there is any. The test suite runs the same lint.
import { fileURLToPath } from 'node:url'
import { createConfig, lintFromString, type NormalizedProblem, type RawUniversalConfig } from '@redocly/openapi-core'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openPglite } from '../src/db/pglite.js'
import { newSecret } from '../src/lib/tokens.js'

const RULES: RawUniversalConfig = {
  extends: ['recommended-strict'],
  rules: {
    // A generator groups operations by tag: one it does not find declared would have no description.
    'operation-tag-defined': 'error',
    // Some operations take no input at all (GET /health, GET /request-types, ...): they send no 4xx, and saying one would be false.
    'operation-4xx-response': 'off',
  },
}

/** The linter's findings on a document, as one line each: `error rule-id message at #/pointer`. */
export async function lintOpenApi (document: unknown): Promise<string[]> {
  const config = await createConfig(RULES)
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config })
  return problems.map(describe)
}

function describe (problem: NormalizedProblem): string {
  const where = problem.location.map((location) => location.pointer).join(', ')
  return `${problem.severity} ${problem.ruleId} ${problem.message} at ${where}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The document comes from the route schemas alone: the database is empty and never queried.
  const db = await openPglite(undefined)
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, jwtSecret: newSecret(), webRoot: false })
  await app.ready()
  const findings = await lintOpenApi(app.swagger())
  await app.close()
  await db.close()
  for (const finding of findings) process.stdout.write(`${finding}\n`)
  process.stdout.write(`${findings.length} finding(s) on the OpenAPI document\n`)
  if (findings.length > 0) process.exitCode = 1
}
