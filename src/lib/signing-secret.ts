import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { newSecret } from './tokens.js'
import { writeWholeFile } from './whole-file.js'

/**
 * The configured secret, or in embedded mode one generated on first start and kept in DATA_DIR
 * (owner-only), so that a restart keeps issued tokens valid and no secret lives in the repository.
 */
export async function resolveSigningSecret (configured: string | undefined, dataDir: string): Promise<string> {
  if (configured !== undefined) return configured
  const file = join(dataDir, 'jwt-secret')
  try {
    return await readSecret(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    await writeWholeFile(file, newSecret(), { mode: 0o600, exclusive: true })
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return await readSecret(file)
}

/** A truncated or edited file must stop start-up, not leave tokens signed with a guessable key. */
async function readSecret (file: string): Promise<string> {
  const secret = (await readFile(file, 'utf8')).trim()
  if (secret.length < 32) throw new Error(`${file} must hold a secret of at least 32 characters; delete it to have a new one generated (all sessions end)`)
  return secret
}
