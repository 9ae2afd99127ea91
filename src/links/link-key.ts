/** How a request names a link: its code, or `<prefix>/<slug>` for a namespaced link (rules.ts parses a short path into one). */
export type LinkKey = { code: string } | { namespace: string; slug: string };
