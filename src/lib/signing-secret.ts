import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { newSecret } from './tokens.js'

/**
 * The configured secret, or in embedded mode one generated on first start and kept in DATA_DIR
 * (owner-only), so that a restart keeps issued tokens valid and no secret lives in the repository.
 */
export async function resolveSigningSecret (configured: string | undefined, dataDir: string): Promise<string> {
  if (configured !== undefined) return configured
  const file = join(dataDir, 'jwt-secret')
  try {
    return (await readFile(file, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    await writeFile(file, newSecret(), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return (await readFile(file, 'utf8')).trim()
}
