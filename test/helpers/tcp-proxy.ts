import net from 'node:net'

/**
 * A TCP proxy in front of a real server, to cut the network under a running service and restore
 * it: `down()` drops every connection and refuses new ones; `up()` accepts again on the same port.
 */
export class TcpProxy {
  #server: net.Server | undefined
  readonly #sockets = new Set<net.Socket>()
  port = 0

  constructor (private readonly targetHost: string, private readonly targetPort: number) {}

  async up (): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost)
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket)
        socket.on('close', () => this.#sockets.delete(socket))
        socket.on('error', () => { client.destroy(); upstream.destroy() })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as net.AddressInfo).port
    this.#server = server
  }

  async down (): Promise<void> {
    const server = this.#server
    this.#server = undefined
    for (const socket of this.#sockets) socket.destroy()
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
