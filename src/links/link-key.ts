/**
 * How a request names a link: its code, `<prefix>/<slug>` for a namespaced link (rules.ts parses a short path into
 * one), or `<host>/<path>` for an imported short path that is not a Snip code (host empty for BASE_URL's): only the
 * redirect looks links up that way.
 */
export type LinkKey = { code: string } | { namespace: string; slug: string } | { legacyPath: string };
