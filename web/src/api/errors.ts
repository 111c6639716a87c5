/**
 * Every failure of a call, in one shape: `status` 0 means no answer arrived (no connection), else the
 * HTTP status; `text` is the API's `{"error"}` text when it sent one. openapi-fetch returns an
 * undefined error for an empty non-OK body and throws a TypeError when the network fails, so both are
 * folded in here rather than trusted (openapi-ts/openapi-typescript#2070, #2151).
 */
export class ApiError extends Error {
  constructor (readonly status: number, readonly text: string) {
    super(text)
    this.name = 'ApiError'
  }

  get offline (): boolean { return this.status === 0 }
}

interface FetchResult<T> { data?: T, error?: unknown, response: Response }

/** The data of a successful answer, or an ApiError. */
export async function unwrap<T> (call: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>
  try {
    result = await call
  } catch (error) {
    if (error instanceof ApiError) throw error
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(0, 'network error')
  }
  if (!result.response.ok) {
    const body = result.error as { error?: unknown } | undefined
    throw new ApiError(result.response.status, typeof body?.error === 'string' ? body.error : '')
  }
  return result.data as T
}
