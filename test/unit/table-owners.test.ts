import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

/** src/modules/README.md: the one file whose SQL writes each table. */
const OWNERS: Record<string, string> = {
  users: 'modules/users/users.repo.ts',
  user_roles: 'modules/roles/roles.repo.ts',
  refresh_tokens: 'modules/auth/auth.repo.ts',
  requests: 'modules/requests/requests.repo.ts',
  volunteer_responses: 'modules/responses/responses.repo.ts',
  ratings: 'modules/responses/responses.repo.ts',
}

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

function sourceFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Tables a file's SQL inserts into, updates, deletes from or locks for update. */
function writtenTables (text: string): string[] {
  const writes = [...text.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+([a-z_]+)/g)].map((m) => m[1]!)
  const locks = [...text.matchAll(/\bFROM\s+([a-z_]+)\b[^`]*?\bFOR (?:NO KEY )?UPDATE\b/g)].map((m) => m[1]!)
  return [...new Set([...writes, ...locks])]
}

describe('table owners (src/modules/README.md)', () => {
  const files = sourceFiles(SRC).filter((file) => !relative(SRC, file).startsWith('db/'))

  it('every table is written by its owner repo only', () => {
    const found: string[] = []
    for (const file of files) {
      const path = relative(SRC, file).split('\\').join('/')
      for (const table of writtenTables(readFileSync(file, 'utf8'))) {
        found.push(table)
        assert.equal(OWNERS[table], path, `${path} writes ${table}, which ${OWNERS[table] ?? 'no repo'} owns`)
      }
    }
    // The check reads what it should: every owned table is written somewhere.
    assert.deepEqual([...new Set(found)].sort(), Object.keys(OWNERS).sort())
  })
})
