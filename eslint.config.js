import reactHooks from 'eslint-plugin-react-hooks'
import neostandard, { plugins } from 'neostandard'

/**
 * Which way imports may go (style.md › Layout: routes → service → repo → db, anything may use lib/,
 * nothing imports upwards). A rule per folder, so that a wrong import fails `npm run lint` instead of
 * waiting for a reviewer. Each entry is [patterns, why]; a file group lists every entry that applies to
 * it, because ESLint does not merge the options of one rule across config objects.
 */
const HTTP = [['**/http/*'], 'only routes and schemas use src/http/: they hand services typed values (Page, NearbySearch, Rectangle)']
/**
 * The areas (src/README.md), bottom to top: an area imports only the areas below it; what a lower area needs
 * from a higher one is a port it declares and the higher area implements, handed down by src/app.ts.
 */
const AREAS = ['messaging', 'accounts', 'help', 'regular-help', 'on-behalf', 'data-protection']
const areasAbove = (area) => AREAS.slice(AREAS.indexOf(area) + 1).map((above) => [[`**/${above}/**`],
  `${area}/ is below ${above}/: declare a port in ${area}/ that ${above}/ implements, and hand it down in src/app.ts`])
const MODULES = [AREAS.map((area) => `**/${area}/**`), 'src/http/ and src/db/ are below the areas: put what both sides need in src/lib/']
const ENTRY = [['**/app.js', '**/main.js', '**/cli.js', '**/areas.js'], 'the entry points and the list of areas are the top layer: nothing imports them']
const FASTIFY = [['fastify', '@fastify/*'], 'this layer is framework-free: Fastify stays in src/http/ and the routes']
const ROUTES = [['*.routes.js', '**/*.routes.js'], 'routes are the top of a module: nothing below them imports one']
const SERVICES = [['*.service.js', '**/*.service.js'], 'a repo is below the services: it takes values, not services']
const ABOVE_LIB = [['../*', '../**'], 'src/lib/ imports only src/lib/ (and packages), so anything may use it']
const TEST = [['**/test/**', '../test/*'], 'scripts use src/, never test/: move what both need into src/']

/**
 * Web features (web/src/features/<feature>/) use their own files and the shared folders (components/,
 * lib/, api/, i18n/), never another feature's: what two features need moves to a shared folder, and
 * where one page shows another feature's page, app.tsx hands it in. The imports are relative, so each
 * depth of file has its own patterns (`../volunteer/…` leaves the feature from features/x/y.tsx).
 */
const webFeature = (...regexes) => ({
  'no-restricted-imports': ['error', {
    patterns: regexes.map((regex) => ({ regex, message: 'a feature imports only its own files and web/src/components, lib, api, i18n: move what features share there' })),
  }],
})
const SHARED = '(?:components|lib|api|i18n)/'
const OTHER_SERVICES = [['../*/*.service.js', '../../*/*/*.service.js'], "a service never calls another module's service: record an event (src/events/events.ts) and let that module react (src/areas.ts)"]
const OTHER_MODULES = ['^\\.\\./(?!\\.\\./(?:db|events|lib)/)', 'a reaction uses its own module\'s repo: what it needs from elsewhere comes in its event']
// Only src/events/dispatcher.ts writes notifications: once per transaction, with every recipient's inbox lock in one order.
const WRITE_NOTIFICATIONS = [['**/notifications/notifications.repo.js'], 'notifications are written by the dispatcher, once per transaction: call notify() in a change or a reaction (src/events/dispatcher.ts)', ['insertNotifications']]

const restrict = (...entries) => ({
  'no-restricted-imports': ['error', {
    // A group is a list of gitignore-style patterns, or one regular expression as a string.
    patterns: entries.map(([group, message, importNames]) => ({
      ...(typeof group === 'string' ? { regex: group } : { group }), message, ...(importNames !== undefined ? { importNames } : {}),
    })),
  }],
})

/** Each layer of an area's modules: [files, files left out, entries]. */
const LAYERS = [
  [['*.routes.ts', '*.schemas.ts'], [], [ENTRY, WRITE_NOTIFICATIONS]],
  // An area's index.ts wires its modules (services, routes, jobs) for src/app.ts.
  [['index.ts'], [], [ENTRY, WRITE_NOTIFICATIONS]],
  [['*.ts'], ['index.ts', '*.routes.ts', '*.schemas.ts', '*.repo.ts', '*.service.ts', '*.reactions.ts'], [HTTP, ENTRY, FASTIFY, ROUTES, WRITE_NOTIFICATIONS]],
  [['*.service.ts'], [], [HTTP, ENTRY, FASTIFY, ROUTES, OTHER_SERVICES, WRITE_NOTIFICATIONS]],
  [['*.reactions.ts'], [], [HTTP, ENTRY, FASTIFY, ROUTES, SERVICES, OTHER_MODULES, WRITE_NOTIFICATIONS]],
  [['*.repo.ts'], [], [HTTP, ENTRY, FASTIFY, ROUTES, SERVICES, WRITE_NOTIFICATIONS]],
]

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'data/**', 'node_modules/**', 'web/dist/**', 'web/test-results/**', 'web/src/api/schema.d.ts'] }),
  {
    rules: {
      // A TypeBox schema and its Static type share one name on purpose (UserProfile and UserProfile);
      // TypeScript itself reports real redeclarations.
      '@typescript-eslint/no-redeclare': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@typescript-eslint': plugins['typescript-eslint'].plugin },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's describe/it return promises the runner itself awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }],
      }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  // Layers, top to bottom, in every area; and no area imports one above it.
  ...AREAS.flatMap((area) => LAYERS.map(([suffixes, ignores, entries]) => ({
    files: suffixes.map((suffix) => `src/${area}/**/${suffix}`),
    ignores: ignores.map((suffix) => `src/${area}/**/${suffix}`),
    rules: restrict(...entries, ...areasAbove(area)),
  }))),
  { files: ['src/http/**/*.ts'], rules: restrict(MODULES, ENTRY) },
  { files: ['src/db/**/*.ts'], rules: restrict(HTTP, MODULES, ENTRY) },
  // Realtime (listening, streams) and the job runner sit beside src/db/: modules hand them what they carry.
  { files: ['src/realtime/**/*.ts', 'src/jobs/**/*.ts'], rules: restrict(HTTP, MODULES, ENTRY, FASTIFY) },
  { files: ['src/lib/**/*.ts'], rules: restrict(ABOVE_LIB, FASTIFY) },
  { files: ['scripts/**'], rules: restrict(TEST) },
  // Files stay under 300 lines, counted as `wc -l` counts them: a longer file is split where it has a seam.
  {
    files: ['src/**/*.{ts,js,mjs}', 'web/src/**/*.{ts,tsx}', 'scripts/**/*.{ts,js,mjs}', 'test/**/*.{ts,js,mjs}', 'web/e2e/**/*.ts'],
    ignores: ['web/src/api/schema.d.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // `void promise` marks a promise an event handler starts and deliberately does not await.
      'no-void': ['error', { allowAsStatement: true }],
    },
  },
  // Web features, by how deep the file sits: features/home.tsx, features/<feature>/x.tsx, features/<feature>/<folder>/x.tsx.
  { files: ['web/src/features/*.{ts,tsx}'], rules: webFeature('^\\./[^/]+/', `^\\.\\./(?!${SHARED})`) },
  { files: ['web/src/features/*/*.{ts,tsx}'], rules: webFeature(`^\\.\\./(?!\\.\\./${SHARED})`) },
  { files: ['web/src/features/*/*/*.{ts,tsx}'], rules: webFeature(`^\\.\\./\\.\\./(?!\\.\\./${SHARED})`) },
]
