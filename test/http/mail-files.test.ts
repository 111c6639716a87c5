import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { writeWholeFile } from '../../src/lib/whole-file.js'
import { unsubscribeTokens } from '../../src/lib/unsubscribe.js'
import { emailChannel } from '../../src/messaging/deliveries/email-channel.js'
import { MAIL_WRITER_DELIVERY } from '../helpers/mail-files.js'

/** Files in MAIL_DIR (and DATA_DIR's secrets) are whole or absent: a write cut short leaves no truncated file under its name. */

const FILE_LIMIT = 1024

/** Runs test/helpers/mail-writer.ts with files limited to FILE_LIMIT bytes (set once it is ready), and returns its outcome. */
async function writeUnderLimit (mailDir: string): Promise<unknown> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/mail-writer.ts', mailDir], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  const exited = new Promise((resolve) => child.on('exit', resolve))
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out === 'ready\n') resolve()
    })
  })
  execFileSync('prlimit', ['--pid', String(child.pid), `--fsize=${FILE_LIMIT}:${FILE_LIMIT}`])
  child.stdin.write('go\n')
  assert.equal(await exited, 0)
  return JSON.parse(out.split('\n')[1]!)
}

describe('files written whole', () => {
  it('an e-mail whose write stops part-way (the file size limit) leaves nothing in MAIL_DIR; the next try writes it whole', async () => {
    const mailDir = await mkdtemp(join(tmpdir(), 'vcs-mail-whole-'))
    try {
      assert.deepEqual(await writeUnderLimit(mailDir), { outcome: 'retry', reason: 'cannot write to MAIL_DIR (EFBIG)' })
      assert.deepEqual(await readdir(mailDir), [], 'no truncated message, no temporary file')
      const channel = emailChannel({ smtpUrl: undefined, mailDir, from: 'x <x@localhost>', links: { publicUrl: 'https://help.example.org', unsubscribe: unsubscribeTokens('mail-writer-secret-that-is-long-enough') }, log: { info () {} } })
      assert.deepEqual(await channel.send({ ...MAIL_WRITER_DELIVERY, attempt: 2 }), { outcome: 'sent' })
      assert.deepEqual(await readdir(mailDir), ['delivery-7-2.eml'])
      const file = join(mailDir, 'delivery-7-2.eml')
      assert.ok((await stat(file)).size > FILE_LIMIT, 'the message is larger than the limit the first try hit')
      assert.match(await readFile(file, 'utf8'), /123456/)
      assert.equal((await stat(file)).mode & 0o777, 0o600)
    } finally {
      await rm(mailDir, { recursive: true, force: true })
    }
  })

  it('an exclusive write (the secrets kept in DATA_DIR) never replaces a file that is there, and leaves no temporary file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vcs-whole-'))
    try {
      const file = join(dir, 'secret')
      await writeFile(file, 'first')
      await assert.rejects(writeWholeFile(file, 'second', { mode: 0o600, exclusive: true }), { code: 'EEXIST' })
      assert.equal(await readFile(file, 'utf8'), 'first')
      assert.deepEqual(await readdir(dir), ['secret'])
      // Several at once: one wins, whole, and every other is told it exists.
      const other = join(dir, 'other')
      const results = await Promise.allSettled(['a', 'b', 'c', 'd'].map((text) => writeWholeFile(other, text.repeat(100), { mode: 0o600, exclusive: true })))
      assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1)
      assert.match(await readFile(other, 'utf8'), /^(a{100}|b{100}|c{100}|d{100})$/)
      assert.deepEqual((await readdir(dir)).sort(), ['other', 'secret'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
