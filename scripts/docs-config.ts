// Rewrites the settings table in README.md from the schema in src/config.ts (npm run docs:config).
import { readFile, writeFile } from 'node:fs/promises'
import { withSettingsTable } from '../src/config.js'

const path = new URL('../README.md', import.meta.url)
const before = await readFile(path, 'utf8')
const after = withSettingsTable(before)
if (after !== before) await writeFile(path, after)
process.stdout.write(after === before ? 'README.md: settings table already up to date\n' : 'README.md: settings table rewritten\n')
