import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { resolveSigningSecret } from '../../src/lib/signing-secret.js'

describe('resolveSigningSecret', () => {
  it('uses the configured secret and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vcs-secret-'))
    try {
      assert.equal(await resolveSigningSecret('configured-secret-configured-secret', dir), 'configured-secret-configured-secret')
      await assert.rejects(stat(join(dir, 'jwt-secret')), { code: 'ENOENT' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('without one, generates a secret once, readable by the owner only, and keeps it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vcs-secret-'))
    try {
      const first = await resolveSigningSecret(undefined, dir)
      assert.ok(first.length >= 32)
      assert.equal((await stat(join(dir, 'jwt-secret'))).mode & 0o777, 0o600)
      assert.equal(await resolveSigningSecret(undefined, dir), first)
      assert.equal((await readFile(join(dir, 'jwt-secret'), 'utf8')).trim(), first)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses a damaged secret file rather than sign with a weak key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vcs-secret-'))
    try {
      await writeFile(join(dir, 'jwt-secret'), 'short\n')
      await assert.rejects(resolveSigningSecret(undefined, dir), /jwt-secret.*at least 32 characters/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
