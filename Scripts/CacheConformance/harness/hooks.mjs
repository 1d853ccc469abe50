// Module resolution hook (see preload.mjs): `undici` resolves to the shim when not installed.
export async function resolve (specifier, context, next) {
  if (specifier === 'undici') {
    try {
      return await next(specifier, context)
    } catch {
      return { url: new URL('./undici-shim.mjs', import.meta.url).href, shortCircuit: true }
    }
  }
  return next(specifier, context)
}
