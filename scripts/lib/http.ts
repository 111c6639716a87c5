/** One JSON call to the service over HTTP: its status and parsed body (undefined when empty). */
export async function json (base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number, body: any }> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}
