// The bench's command line (see main.ts and docs/performance.md).
import { parseArgs } from 'node:util'
import { DEFAULTS } from '../seed.js'

export const SCENARIOS = ['nearby', 'bounds', 'map', 'detail', 'me', 'create', 'login', 'mix', 'health-login', 'health', 'deliveries'] as const
export type Scenario = typeof SCENARIOS[number]

export interface Options {
  base: string
  databaseUrl: string | undefined
  pid: number | undefined
  duration: number
  warmup: number
  connections: number
  runs: number
  scenarios: Scenario[]
  label: string
  json: string | undefined
  center: { lat: number, lon: number }
  /** Demo accounts the login storm cycles through (demo-1 .. demo-N), so no one account is rate limited. */
  loginAccounts: number
  seed: number
  /** The deliveries scenario: approvals per phase, and the port of the bench's SMTP server. */
  deliveries: number
  smtpPort: number
  /** The deliveries scenario's Web Push receiver: its port and where its certificate is kept; off with --email-only. */
  pushPort: number
  pushTlsDir: string
  emailOnly: boolean
  /** Only make the receiver's certificate (for a service started before the first run) and stop. */
  pushCertificate: boolean
  /** Approvals a second in the deliveries scenario's steady phase; 0: as fast as the connections allow. */
  approvalRate: number
}

export function parseOptions (argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string', default: 'http://127.0.0.1:3000/api/v1' },
      'database-url': { type: 'string' },
      pid: { type: 'string' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32' },
      runs: { type: 'string', default: '1' },
      scenarios: { type: 'string', default: SCENARIOS.filter((s) => s !== 'deliveries').join(',') },
      label: { type: 'string', default: '' },
      json: { type: 'string' },
      center: { type: 'string' },
      'login-accounts': { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      deliveries: { type: 'string', default: '1000' },
      'smtp-port': { type: 'string', default: '2525' },
      'push-port': { type: 'string', default: '2526' },
      'push-tls-dir': { type: 'string', default: '/tmp/vcs-bench-push' },
      'email-only': { type: 'boolean', default: false },
      'push-certificate': { type: 'boolean', default: false },
      'approval-rate': { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help === true) {
    process.stdout.write('npm run bench -- --base URL [--database-url URL] [--pid PID] [--duration S] [--warmup S] [--connections N] [--runs N]\n' +
      `  [--scenarios ${SCENARIOS.join(',')}] [--label TEXT] [--json FILE] [--center lat,lon] [--login-accounts N] [--seed S]\n` +
      '  [--deliveries N] [--approval-rate R] [--smtp-port PORT] [--push-port PORT] [--push-tls-dir DIR] [--email-only]\n' +
      '  (deliveries: start the service with SMTP_URL=smtp://127.0.0.1:PORT PUSH_ENDPOINT_HOSTS=localhost NODE_EXTRA_CA_CERTS=DIR/cert.pem;\n' +
      '   the certificate is made by the first run, or by npm run bench -- --push-tls-dir DIR --push-certificate)\n')
    process.exit(0)
  }
  const positive = (name: string, raw: string, min = 1) => {
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`)
    return value
  }
  const scenarios = values.scenarios.split(',').map((s) => s.trim()).filter(Boolean)
  for (const s of scenarios) {
    if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario "${s}": choose from ${SCENARIOS.join(', ')}`)
  }
  const [lat, lon] = values.center === undefined ? [DEFAULTS.center.lat, DEFAULTS.center.lon] : values.center.split(',').map(Number)
  return {
    base: values.base.replace(/\/$/, ''),
    databaseUrl: values['database-url'],
    pid: values.pid === undefined ? undefined : positive('pid', values.pid),
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup, 0),
    connections: positive('connections', values.connections),
    runs: positive('runs', values.runs),
    scenarios: scenarios as Scenario[],
    label: values.label,
    json: values.json,
    center: { lat: lat ?? NaN, lon: lon ?? NaN },
    loginAccounts: positive('login-accounts', values['login-accounts']),
    seed: positive('seed', values.seed, 0),
    deliveries: positive('deliveries', values.deliveries),
    smtpPort: positive('smtp-port', values['smtp-port']),
    pushPort: positive('push-port', values['push-port']),
    pushTlsDir: values['push-tls-dir'],
    emailOnly: values['email-only'],
    pushCertificate: values['push-certificate'],
    approvalRate: positive('approval-rate', values['approval-rate'], 0),
  }
}
