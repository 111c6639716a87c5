// npm run docs:config: rewrites the settings table in README.md from the schema in src/config.ts (SETTINGS).
// The table is this script's work alone; test/unit/config.test.ts checks that the README is current.
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { SETTINGS } from '../src/config.js'
import { expected, leavesOf, type Leaf } from '../src/lib/env-schema.js'

/** What a value may be, for the README: the words of the check's own message. */
function allowed (schema: Leaf): string {
  const words = expected(schema).replace(/^be /, '')
  return schema.type === 'array' ? `${words}, comma-separated` : words
}

function defaultText (schema: Leaf): string {
  if (schema.unset !== undefined) return schema.unset
  if (schema.default === undefined) return 'unset'
  if (Array.isArray(schema.default) && schema.default.length === 0) return 'none'
  return `\`${String(schema.default)}\``
}

/** The README's settings table (Markdown), one row per environment variable. */
export function settingsTable (): string {
  const rows = leavesOf(SETTINGS).map((leaf) => `| \`${leaf.env}\` | ${defaultText(leaf)} | ${allowed(leaf)} | ${leaf.description ?? ''} |`)
  return ['| Variable | Default | Value | Meaning |', '|---|---|---|---|', ...rows].join('\n')
}

const TABLE_START = '<!-- settings table: written by `npm run docs:config` from src/config.ts -->'
const TABLE_END = '<!-- end of settings table -->'

/** README text with its settings table (between the two markers) rewritten from the schema. */
export function withSettingsTable (readme: string): string {
  const start = readme.indexOf(TABLE_START)
  const end = readme.indexOf(TABLE_END)
  if (start === -1 || end < start) throw new Error(`README.md needs the lines ${TABLE_START} and ${TABLE_END}`)
  return `${readme.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${readme.slice(end)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = new URL('../README.md', import.meta.url)
  const before = await readFile(path, 'utf8')
  const after = withSettingsTable(before)
  if (after !== before) await writeFile(path, after)
  process.stdout.write(after === before ? 'README.md: settings table already up to date\n' : 'README.md: settings table rewritten\n')
}
