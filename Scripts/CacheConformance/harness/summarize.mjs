// Sums a cache-tests results file the way cache-tests.fyi classifies each cell
// (test-engine/lib/results.mjs, dependencies honoured): required = kind 'required' or no kind,
// optimal = kind 'optimal', check = kind 'check' (behaviour probes, yes/no, neither pass nor fail).
//
//   node summarize.mjs --suite DIR --results FILE --mode private|shared|browser [--json OUT]
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { isSelected } from './selection.mjs'

const args = {}
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  if (a.startsWith('--')) args[a.slice(2)] = process.argv[++i]
}
const suite = path.resolve(args.suite)
const mode = args.mode ?? 'private'
const results = JSON.parse(fs.readFileSync(args.results, 'utf8'))
const load = rel => import(pathToFileURL(path.join(suite, rel)).href)
const { determineTestResult, resultTypes } = await load('test-engine/lib/results.mjs')
const tests = (await load('tests/index.mjs')).default

const names = Object.fromEntries(Object.entries(resultTypes).map(([k, v]) => [v[2], k]))
const groups = { required: {}, optimal: {}, check: {} }
const failures = []
for (const s of tests) {
  for (const t of s.tests) {
    if (!isSelected(t, mode)) continue
    const kind = t.kind ?? 'required'
    const outcome = names[determineTestResult(tests, t.id, results)[2]]
    groups[kind][outcome] = (groups[kind][outcome] ?? 0) + 1
    if (!['pass', 'yes', 'no'].includes(outcome)) {
      failures.push({ id: t.id, suite: s.id, kind, outcome, name: t.name, reason: results[t.id]?.[1] ?? null, depends_on: t.depends_on })
    }
  }
}
const total = g => Object.values(g).reduce((a, b) => a + b, 0)
const summary = {
  mode,
  required: { passed: groups.required.pass ?? 0, total: total(groups.required), outcomes: groups.required },
  optimal: { passed: groups.optimal.pass ?? 0, total: total(groups.optimal), outcomes: groups.optimal },
  check: { yes: groups.check.yes ?? 0, total: total(groups.check), outcomes: groups.check },
  failures
}
if (args.json) fs.writeFileSync(args.json, JSON.stringify(summary, null, 2))
console.log(`mode ${mode}: required ${summary.required.passed}/${summary.required.total} passed ${JSON.stringify(groups.required)}`)
console.log(`mode ${mode}: optimal  ${summary.optimal.passed}/${summary.optimal.total} passed ${JSON.stringify(groups.optimal)}`)
console.log(`mode ${mode}: check    ${summary.check.yes}/${summary.check.total} yes ${JSON.stringify(groups.check)}`)
for (const f of failures) {
  console.log(`  [${f.outcome}] ${f.id} (${f.kind}): ${f.name}${f.reason ? `\n      -> ${f.reason}` : ''}${f.outcome === 'dependency_fail' ? `\n      -> depends on ${f.depends_on.join(', ')}` : ''}`)
}
