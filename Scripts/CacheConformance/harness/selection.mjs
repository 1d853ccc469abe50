// Which of the suite's tests apply in each mode, and with which client.
//
// - shared:  what `npm run cli` runs (a reverse proxy / CDN): every test but the `browser_only` ones.
// - browser: what test-browser.html runs: no `cdn_only` and no `browser_skip` tests. Its
//            `browser_skip` tests are of two sorts: rules for shared caches only, and tests a
//            browser's Fetch API cannot observe (3xx with redirect: 'manual', the client's own
//            conditional requests, 1xx interim responses).
// - private: the rules for a private cache that is not a browser (NetworkingKit's): every test
//            but the CDN ones and the shared-cache ones (a `browser_skip` test whose name says
//            "shared"), and the `browser_only` private-cache tests included. The `browser_only`
//            tests run with the suite's browser client, since some set a Fetch cache mode
//            (`cache: 'no-cache'`), which Node's fetch turns into request headers only then.
export const modes = ['private', 'shared', 'browser']

export function isSharedCacheOnly (test) {
  return test.browser_skip === true && /shared/i.test(test.name)
}

export function isSelected (test, mode) {
  switch (mode) {
    case 'shared': return test.browser_only !== true
    case 'browser': return test.cdn_only !== true && test.browser_skip !== true
    case 'private': return test.cdn_only !== true && !isSharedCacheOnly(test)
    default: throw new Error(`unknown mode ${mode}`)
  }
}

export function usesBrowserClient (test, mode) {
  return mode === 'browser' || (mode === 'private' && test.browser_only === true)
}
