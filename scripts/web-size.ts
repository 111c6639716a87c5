// npm run web:size: the JavaScript the start page loads (its module script and every modulepreload in
// web/dist/index.html), as sent compressed: gzip and brotli, the files the build wrote beside each asset.
// The start page's budget is 150 kB compressed; docs/web.md › Size has the figures. Run after `npm run build:web`.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

const dist = join(import.meta.dirname, '..', 'web', 'dist')
const html = readFileSync(join(dist, 'index.html'), 'utf8')
const files = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!))]
const size = (path: string) => statSync(join(dist, path)).size
const total = { raw: 0, gzip: 0, brotli: 0 }
for (const file of files) {
  total.raw += size(file)
  total.gzip += size(`${file}.gz`)
  total.brotli += size(`${file}.br`)
}
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
process.stdout.write(`start page JavaScript, ${files.length} files: ${kB(total.raw)} raw, ${kB(total.gzip)} gzip, ${kB(total.brotli)} brotli (budget 150 kB)\n`)
