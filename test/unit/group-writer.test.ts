import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { GroupWriter } from '../../src/lib/group-writer.js'

/** src/lib/group-writer.ts: callers at the same moment share a write; each learns its own item's outcome. */
describe('GroupWriter', () => {
  /** A store whose writes take a turn of the event loop, refusing the item 'bad' (like a row the database rejects). */
  function store () {
    const groups: string[][] = []
    const written: string[] = []
    const writer = new GroupWriter<string>(async (items) => {
      groups.push(items)
      await new Promise((resolve) => setImmediate(resolve))
      if (items.includes('bad')) throw new Error('refused')
      written.push(...items)
    }, 3)
    return { groups, written, writer }
  }

  it('writes a lone item at once, and items added meanwhile together, at most a group\'s size at a time', async () => {
    const { groups, written, writer } = store()
    await writer.add('a')
    assert.deepEqual(groups, [['a']])
    const first = writer.add('b')
    const others = ['c', 'd', 'e', 'f'].map(async (item) => await writer.add(item))
    await Promise.all([first, ...others])
    assert.deepEqual(groups, [['a'], ['b'], ['c', 'd', 'e'], ['f']])
    assert.deepEqual(written, ['a', 'b', 'c', 'd', 'e', 'f'])
  })

  it('settles each caller only once its own item is written', async () => {
    const { written, writer } = store()
    const seen: string[][] = []
    await Promise.all(['a', 'b', 'c'].map(async (item) => { await writer.add(item); seen.push([item, String(written.includes(item))]) }))
    assert.deepEqual(seen.sort(), [['a', 'true'], ['b', 'true'], ['c', 'true']])
  })

  it('a group that fails is written item by item: only the bad item\'s caller gets the error', async () => {
    const { groups, written, writer } = store()
    const first = writer.add('a')
    const results = await Promise.allSettled([first, writer.add('b'), writer.add('bad'), writer.add('c')])
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    assert.deepEqual(groups, [['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']])
    assert.deepEqual(written, ['a', 'b', 'c'])
    await writer.add('d')
    assert.deepEqual(written.at(-1), 'd', 'the writer goes on after a failure')
  })
})
