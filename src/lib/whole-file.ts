import { randomBytes } from 'node:crypto'
import { link, open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Writes `data` to `file` whole or not at all: under a hidden temporary name beside it, flushed to disk,
 * then moved into place, so a crash mid-write leaves at most a `.….tmp` file, never a truncated one under
 * the real name. `exclusive`: fails with EEXIST when the file exists (the first writer wins), by a hard
 * link instead of the rename, which would replace it.
 */
export async function writeWholeFile (file: string, data: string | Uint8Array, options: { mode: number, exclusive?: boolean }): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temporary, 'wx', options.mode)
  let moved = false
  try {
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    if (options.exclusive === true) {
      await link(temporary, file)
    } else {
      await rename(temporary, file)
      moved = true
    }
  } finally {
    if (!moved) await unlink(temporary).catch(() => {})
  }
}
