import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { isStartText, pickTexts, START_TEXTS } from './src/i18n/start-texts.js'

const root = fileURLToPath(new URL('.', import.meta.url))
const outDir = join(root, 'dist')

/**
 * Writes file.br and file.gz beside each text file of the build, so the service sends them
 * compressed (@fastify/static preCompressed) without compressing anything per request.
 */
function precompress (): Plugin {
  const brotli = promisify(brotliCompress)
  const gz = promisify(gzip)
  return {
    name: 'precompress',
    apply: 'build',
    async closeBundle () {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => /\.(js|css|html|json|svg|webmanifest|txt)$/.test(file))
      await Promise.all(files.map(async (file) => {
        const path = join(outDir, file)
        const data = await readFile(path)
        await writeFile(`${path}.br`, await brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
        await writeFile(`${path}.gz`, await gz(data, { level: 9 }))
      }))
    },
  }
}

/**
 * Writes sw.js, the app's service worker (web/service-worker.js), with this build's list of files and a version
 * made from their names and web/public's contents (the bundle's names already hash their contents): a new build
 * is a new worker with a new cache, and the old cache goes (docs/web.md › Offline reading).
 */
function serviceWorker (): Plugin {
  return {
    name: 'service-worker',
    apply: 'build',
    // After Vite's own HTML step, which drops the HTML entry's empty chunk from the bundle.
    enforce: 'post',
    async generateBundle (_options, bundle) {
      const publicDir = join(root, 'public')
      const publicFiles = (await readdir(publicDir)).sort()
      const hash = createHash('sha256')
      for (const file of publicFiles) hash.update(file).update(await readFile(join(publicDir, file)))
      const built = Object.keys(bundle).filter((file) => file !== 'index.html' && !file.endsWith('.map')).sort()
      for (const file of built) hash.update(file)
      const files = ['/', ...built.map((file) => `/${file}`), ...publicFiles.map((file) => `/${file}`)]
      const head = `const VERSION = '${hash.digest('hex').slice(0, 16)}'\nconst FILES = ${JSON.stringify(files)}\n`
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: head + await readFile(join(root, 'service-worker.js'), 'utf8') })
    },
  }
}

/**
 * `en.json?start` is the part of the English texts that START_TEXTS names (src/i18n/start-texts.ts): only it travels
 * in the start page's JavaScript. The build fails when the start page's code names a text left out of it, which
 * would otherwise show as its key until a page loaded the rest.
 */
function startTexts (): Plugin {
  const source = join(root, 'src', 'i18n', 'en.json')
  const english = async () => JSON.parse(await readFile(source, 'utf8')) as Parameters<typeof pickTexts>[0]
  return {
    name: 'start-texts',
    enforce: 'pre',
    resolveId (id, importer) {
      if (id.endsWith('en.json?start') && importer !== undefined) return join(importer, '..', id)
    },
    async load (id) {
      if (!id.endsWith('en.json?start')) return
      this.addWatchFile(source)
      return `export default ${JSON.stringify(pickTexts(await english(), START_TEXTS))}`
    },
    async generateBundle (_options, bundle) {
      const texts = await english()
      const known = (key: string) => key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], texts) !== undefined
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry)
      const start = new Set<string>()
      const visit = (name: string) => {
        const chunk = bundle[name]
        if (start.has(name) || chunk?.type !== 'chunk') return
        start.add(name)
        chunk.imports.forEach(visit)
      }
      if (entry !== undefined) visit(entry.fileName)
      for (const name of start) {
        const chunk = bundle[name]
        if (chunk?.type !== 'chunk') continue
        // A text's name, or the fixed start of a name made at run time (`roles.${name}`).
        for (const [, key, made] of chunk.code.matchAll(/["'`]([a-zA-Z]+(?:\.[a-zA-Z0-9_]+)*)(\.(?:\$\{|["'`]\s*\+))?/g)) {
          if ((key!.includes('.') || made !== undefined) && known(key!) && !isStartText(key!, START_TEXTS)) this.error(`the start page uses the text ${key}, which START_TEXTS leaves out (web/src/i18n/start-texts.ts)`)
        }
      }
    },
  }
}

export default defineConfig({
  root,
  plugins: [startTexts(), react(), serviceWorker(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      output: {
        // Few files, not many small ones: the service speaks HTTP/1.1, where a browser opens 6 connections to a host,
        // and the start page's 15 files and a page's 12 came in waves, the session call queued behind them
        // (Lighthouse: LCP 3.0 s -> 2.4 s, docs/web.md › Size). Everything the start page needs is one file; what two or
        // more of the pages loaded on first use share is another; each page is its own.
        codeSplitting: {
          groups: [
            { name: 'start', tags: ['$initial'], priority: 2 },
            // The phone numbers' metadata (about 33 kB compressed) only for the pages with a phone field, not in common.
            { name: 'phone', test: /libphonenumber-js/, priority: 3 },
            { name: 'common', minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
})
