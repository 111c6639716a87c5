import { existsSync } from 'node:fs'

export interface Browser { executablePath: string, args: string[], source: string }

const HOW_TO_GET_ONE = 'no Chromium for the browser tests: set CHROMIUM_PATH, or apt-get install -y chromium, or npm ci (it installs @sparticuz/chromium)'

/**
 * The Chromium the browser tests drive, in this order: CHROMIUM_PATH; the system's (Debian's
 * chromium package); the headless build inside the @sparticuz/chromium npm package, which `npm ci`
 * installs, so a fresh machine needs no download. Playwright's own browser download is not used.
 */
export async function findChromium (): Promise<Browser> {
  const fromEnv = process.env.CHROMIUM_PATH?.trim()
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist; ${HOW_TO_GET_ONE}`)
    return { executablePath: fromEnv, args: [], source: 'CHROMIUM_PATH' }
  }
  if (existsSync('/usr/bin/chromium')) return { executablePath: '/usr/bin/chromium', args: [], source: 'system' }
  try {
    // CommonJS module with a default export (Sparticuz/chromium#404).
    const module = await import('@sparticuz/chromium')
    const chromium = (module.default ?? module) as { executablePath: () => Promise<string> }
    // Its own argument list is for AWS Lambda (and turns off web security); here a headless shell needs no
    // zygote and no sandbox (we may run as root), and no GPU process: the app draws no WebGL (the map is
    // Leaflet's HTML), so software GL is not needed.
    return { executablePath: await chromium.executablePath(), args: ['--no-zygote', '--disable-gpu'], source: '@sparticuz/chromium' }
  } catch (error) {
    throw new Error(`${HOW_TO_GET_ONE} (${(error as Error).message})`)
  }
}
