import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { it } from 'node:test'
import ts from 'typescript'

/**
 * Comments speak of the code: a comment in src/ or web/src/ that points at a Markdown file points at one this
 * repository holds (docs/api/help.md › Maps, src/README.md), so a maintainer can follow it. The file is
 * looked for from the repository's root, then beside the commented file.
 */
const ROOT = new URL('../../', import.meta.url).pathname
const DIRS = ['src', join('web', 'src')]
// Generated from the route schemas' descriptions (strings, not comments) by npm run web:api-types.
const GENERATED = new Set([join('web', 'src', 'api', 'schema.d.ts')])
const CITATION = /(?<![\w@/.-])((?:[\w.-]+\/)*[\w-]+\.md)\b/g

function sourceFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : []
  })
}

/** The text of every comment of a file, with its line: the compiler's own reading, so strings and regexes are not taken for comments. */
export function commentsOf (fileName: string, text: string): Array<{ line: number, text: string }> {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind)
  const seen = new Map<number, string>()
  const visit = (node: ts.Node): void => {
    const ranges = [...ts.getLeadingCommentRanges(text, node.pos) ?? [], ...ts.getTrailingCommentRanges(text, node.end) ?? []]
    for (const range of ranges) seen.set(range.pos, text.slice(range.pos, range.end))
    for (const child of node.getChildren(file)) visit(child)
  }
  visit(file)
  return [...seen].map(([pos, comment]) => ({ line: file.getLineAndCharacterOfPosition(pos).line + 1, text: comment }))
}

/** The Markdown files a comment names. */
export function citedFiles (comment: string): string[] {
  return [...comment.matchAll(CITATION)].map((match) => match[1] ?? '')
}

it('finds Markdown files named in comments only, not in strings or JSX text', () => {
  const text = [
    "const a = 'rules.md' // see docs/api/help.md",
    '/* trust.md § 5 */ const b = /x.md/',
    'const c = `$' + '{a} schedule.md`',
    'export const d = <p>notes.md {/* behalf.md */}</p>'
  ].join('\n')
  const cited = commentsOf('x.tsx', text).flatMap((comment) => citedFiles(comment.text))
  assert.deepEqual(cited.sort(), ['behalf.md', 'docs/api/help.md', 'trust.md'])
})

it('every Markdown file a comment in src/ or web/src/ names is in the repository', () => {
  const missing: string[] = []
  for (const dir of DIRS) {
    for (const path of sourceFiles(join(ROOT, dir))) {
      const name = relative(ROOT, path)
      if (GENERATED.has(name)) continue
      for (const comment of commentsOf(name, readFileSync(path, 'utf8'))) {
        for (const cited of citedFiles(comment.text)) {
          if (!existsSync(join(ROOT, cited)) && !existsSync(join(dirname(path), cited))) missing.push(`${name}:${comment.line}: ${cited}`)
        }
      }
    }
  }
  assert.deepEqual(missing, [], 'comments that cite Markdown files the repository does not hold')
})
