// Runs cache-tests' client against a cache and prints its results as JSON, as the suite's own
// `npm run cli` does, in one of the modes of ./selection.mjs:
//   --mode private (default)  the rules for a private cache (NetworkingKit's HTTPCache)
//   --mode shared             the same tests as `npm run cli` (a shared cache)
//   --mode browser            the same tests as test-browser.html
//
//   node --import ./preload.mjs run-suite.mjs --suite DIR --base URL [--mode M] [--id TEST | --ids A,B]
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { isSelected, modes, usesBrowserClient } from './selection.mjs'

const args = {}
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  if (a.startsWith('--')) args[a.slice(2)] = process.argv[++i]
}
const suite = path.resolve(args.suite ?? process.env.CACHE_TESTS_DIR ?? '.')
const base = args.base
const mode = args.mode ?? 'private'
if (!base || !modes.includes(mode)) {
  console.error('usage: run-suite.mjs --suite DIR --base URL [--mode private|shared|browser] [--id TEST | --ids A,B]')
  process.exit(64)
}
const load = rel => import(pathToFileURL(path.join(suite, rel)).href)
const { runTests, getResults } = await load('test-engine/client/runner.mjs')
const { determineTestResult } = await load('test-engine/lib/results.mjs')
const tests = (await load('tests/index.mjs')).default

// --id TEST: one test, with its requests and responses dumped (as `npm run cli --id=`);
// --ids A,B,...: those tests only, results as JSON.
const ids = args.id ? [args.id] : args.ids?.split(',')
function pick (browserClient) {
  const sets = []
  for (const s of tests) {
    const picked = s.tests.filter(t =>
      isSelected(t, mode) && usesBrowserClient(t, mode) === browserClient && (!ids || ids.includes(t.id)))
    if (args.id) picked.forEach(t => { t.dump = true })
    if (picked.length) sets.push({ ...s, tests: picked })
  }
  return sets
}
// One pass per client; results accumulate in the suite's runner.
await runTests(pick(false), false, base)
await runTests(pick(true), true, base)
const results = getResults()
if (args.id) {
  const r = determineTestResult(tests, args.id, results, false)
  console.log(`${r[2]} - ${results[args.id]?.[1] ?? ''}`)
} else {
  console.log(JSON.stringify(results, null, 2))
}
