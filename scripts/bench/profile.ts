// Summarises a V8 CPU profile (node --cpu-prof) as text: where the time went by package and by function,
// self and inclusive. A flame graph of the same file: open it in Chrome DevTools (Performance, load profile)
// or https://www.speedscope.app.
//
//   npm run build && node --cpu-prof --cpu-prof-dir=prof dist/main.js   # load it, then stop it with SIGTERM
//   npx tsx scripts/bench/profile.ts prof/CPU.*.cpuprofile [--top 30] [--last 15]
// --last S keeps the profile's last S seconds only: the load, without start-up and the idle wait before it.
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'

interface ProfileNode {
  id: number
  callFrame: { functionName: string, url: string, lineNumber: number }
  children?: number[]
}
interface Profile { nodes: ProfileNode[], samples: number[], timeDeltas: number[] }

/** What a frame belongs to: a package, a file of ours, node itself, or V8's pseudo frames. */
function owner (url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]
  if (pkg !== undefined) return pkg
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0]
  const ours = /\/(src|dist|scripts)\/(.+)$/.exec(url)
  return ours !== undefined && ours !== null ? `${ours[1]}/${ours[2]}` : url
}

function percent (part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1).padStart(5)}%`
}

async function main (): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' }, last: { type: 'string' } } })
  const top = Number(values.top)
  const lastMicros = values.last === undefined ? Infinity : Number(values.last) * 1e6
  for (const file of positionals) {
    const profile = JSON.parse(await readFile(file, 'utf8')) as Profile
    const byId = new Map(profile.nodes.map((node) => [node.id, node]))
    const self = new Map<number, number>()
    const end = profile.timeDeltas.reduce((a, b) => a + b, 0)
    let at = 0
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0
      at += delta
      if (end - at < lastMicros) self.set(id, (self.get(id) ?? 0) + delta)
    })
    const total = [...self.values()].reduce((a, b) => a + b, 0)
    const idle = [...self.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0)
    const busy = total - idle

    // Inclusive time per function (counted once per stack, so recursion is not double counted).
    const parent = new Map<number, number>()
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
    const key = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${owner(node.callFrame.url, node.callFrame.functionName)}:${node.callFrame.lineNumber + 1}`
    const inclusive = new Map<string, number>()
    const selfByKey = new Map<string, number>()
    const byOwner = new Map<string, number>()
    for (const [id, time] of self) {
      const leaf = byId.get(id)
      if (leaf === undefined) continue
      selfByKey.set(key(leaf), (selfByKey.get(key(leaf)) ?? 0) + time)
      const who = owner(leaf.callFrame.url, leaf.callFrame.functionName)
      byOwner.set(who, (byOwner.get(who) ?? 0) + time)
      const seen = new Set<string>()
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const node = byId.get(at)
        if (node === undefined) break
        const k = key(node)
        if (seen.has(k)) continue
        seen.add(k)
        inclusive.set(k, (inclusive.get(k) ?? 0) + time)
      }
    }

    const rows = (map: Map<string, number>, whole: number) =>
      [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, t]) => `  ${percent(t, whole)}  ${(t / 1000).toFixed(0).padStart(7)} ms  ${name}`)
    process.stdout.write([
      `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${percent(busy, total)} busy (the rest idle: waiting for I/O)`,
      '', 'Self time by owner (share of busy time):', ...rows(new Map([...byOwner].filter(([k]) => k !== '(idle)')), busy),
      '', 'Self time by function:', ...rows(new Map([...selfByKey].filter(([k]) => !k.startsWith('(idle)'))), busy),
      '', 'Inclusive time by function:', ...rows(new Map([...inclusive].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)'))), busy),
      '', '',
    ].join('\n'))
  }
}

await main()
