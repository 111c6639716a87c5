/**
 * The English texts the start page's own code uses (the home page, the menu, the frame, notifications told live):
 * whole sections, or single keys of a page's section. Only these travel in the start page's JavaScript; the rest of
 * en.json arrives with the first page loaded on first use (docs/web.md › Size). The build fails when the start
 * page's code names a text this list leaves out (web/vite.config.ts, startTexts).
 */
export const START_TEXTS: readonly string[] = [
  'account', 'app', 'checks.kinds', 'coming.title', 'common', 'concerns.outcomes', 'concerns.outcomeSentences', 'errors',
  'home', 'language', 'mine.title', 'nav', 'notFound', 'notifications', 'profile.title', 'roles', 'success',
  'ask.title', 'admin.nav', 'availability.nav', 'coordinator.nav', 'moderation.nav', 'reports.nav', 'settings.menu',
  'carers.helpers.title', 'carers.helping.title',
  'volunteer.kinds', 'volunteer.nav', 'volunteer.noAccess', 'volunteer.responseStatus', 'volunteer.status',
  'volunteer.tryAgain', 'volunteer.urgency',
]

type Texts = { [key: string]: string | Texts }

/** The parts of `texts` that `paths` name, in the same shape. */
export function pickTexts (texts: Texts, paths: readonly string[]): Texts {
  const picked: Texts = {}
  for (const path of paths) {
    const keys = path.split('.')
    let from: string | Texts | undefined = texts
    let to = picked
    keys.forEach((key, index) => {
      from = typeof from === 'object' ? from[key] : undefined
      if (from === undefined) throw new Error(`start texts: ${path} is not in en.json`)
      if (index === keys.length - 1) to[key] = from
      else to = (to[key] ??= {}) as Texts
    })
  }
  return picked
}

/** Whether `key` (a text's dotted name, or the fixed start of one made at run time) is among `paths`. */
export const isStartText = (key: string, paths: readonly string[]): boolean =>
  paths.some((path) => key === path || key.startsWith(`${path}.`))
