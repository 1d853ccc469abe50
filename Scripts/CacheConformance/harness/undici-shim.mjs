// The part of undici 7 that cache-tests' client uses (`new Agent().compose(interceptor)` with a
// handler of undici 7's shape), over the undici 6 that Node 20 bundles for its own fetch(): its
// global dispatcher, whose handlers have the older shape (onConnect, onHeaders, onData, ...).
// Node's bundled undici calls onHeaders for 1xx answers too, which is what the interim tests read.
const globalDispatcherKey = Symbol.for('undici.globalDispatcher.1')

function headersObject (raw) {
  const headers = {}
  if (!Array.isArray(raw)) return raw || {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toString().toLowerCase()
    const value = raw[i + 1].toString()
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value
  }
  return headers
}

export class Agent {
  compose (...interceptors) {
    const root = globalThis[globalDispatcherKey]
    if (root === undefined) throw new Error('undici shim: Node has no global dispatcher yet')
    return {
      dispatch (opts, legacy) {
        // What the two adapters of one request share: the raw fields, and the legacy handler's
        // answers (false = pause).
        const shared = { raw: null, trailers: null, resume: null, result: true, abort: null }
        const controller = {
          abort: reason => shared.abort?.(reason),
          pause: () => { shared.result = false },
          resume: () => shared.resume?.(),
          get paused () { return shared.result === false },
          get aborted () { return false }
        }
        // Undici-7-shaped handler in front of the legacy (fetch's) handler.
        const inner = {
          onRequestStart (_controller, context) { legacy.onConnect?.(shared.abort, context) },
          onRequestUpgrade (_controller, statusCode, _headers, socket) {
            legacy.onUpgrade?.(statusCode, shared.raw, socket)
          },
          onResponseStart (_controller, statusCode, _headers, statusMessage) {
            shared.result = legacy.onHeaders?.(statusCode, shared.raw, shared.resume, statusMessage) !== false
          },
          onResponseData (_controller, chunk) { shared.result = legacy.onData?.(chunk) !== false },
          onResponseEnd (_controller, _trailers) { legacy.onComplete?.(shared.trailers) },
          onResponseError (_controller, err) { legacy.onError?.(err) }
        }
        let dispatch = (o, handler) => root.dispatch(o, {
          // Legacy-shaped handler that the bundled dispatcher calls.
          onConnect (abort, context) { shared.abort = abort; handler.onRequestStart?.(controller, context) },
          onHeaders (statusCode, raw, resume, statusText) {
            shared.raw = raw
            shared.resume = resume
            shared.result = true
            handler.onResponseStart?.(controller, statusCode, headersObject(raw), statusText)
            return shared.result
          },
          onData (chunk) { shared.result = true; handler.onResponseData?.(controller, chunk); return shared.result },
          onComplete (trailers) { shared.trailers = trailers; handler.onResponseEnd?.(controller, headersObject(trailers)) },
          onError (err) { handler.onResponseError?.(controller, err) },
          onUpgrade (statusCode, raw, socket) {
            shared.raw = raw
            handler.onRequestUpgrade?.(controller, statusCode, headersObject(raw), socket)
          },
          onBodySent (chunk) { return legacy.onBodySent?.(chunk) },
          onRequestSent () { return legacy.onRequestSent?.() },
          onResponseStarted () { return legacy.onResponseStarted?.() }
        })
        for (const interceptor of [...interceptors].reverse()) dispatch = interceptor(dispatch)
        return dispatch(opts, inner)
      },
      close () { return Promise.resolve() },
      destroy () { return Promise.resolve() }
    }
  }
}

export default { Agent }
