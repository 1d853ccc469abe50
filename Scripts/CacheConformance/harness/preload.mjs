// Loaded with `node --import` before the suite's server or client:
// - the origin server listens on 127.0.0.1 only (the suite's server.mjs binds every interface);
// - `import('undici')` (the suite's client asks for it only for its interim-response tests) falls
//   back to ./undici-shim.mjs when the real package is not installed (no npm registry here).
import http from 'node:http'
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url)

if (process.env.CACHECONF_LOOPBACK === '1') {
  const listen = http.Server.prototype.listen
  http.Server.prototype.listen = function (...args) {
    if (typeof args[0] === 'number' || typeof args[0] === 'string') {
      return listen.call(this, Number(args[0]), '127.0.0.1', ...args.slice(1))
    }
    return listen.apply(this, args)
  }
}
