import { hasControlCharacters } from '../control-characters.js';
import { Type } from '@sinclair/typebox';
import { errors } from '../errors.js';
import { Nullable } from '../schema/shapes.js';
import { checkDestination, MAX_URL_LENGTH } from '../links/rules.js';
import { named } from '../schema/names.js';
import { PLATFORMS, type AppLinks, type AppTarget, type Platform } from './app-targets.js';

/**
 * Schemes a deep link may never use: they run code or read local data in the browser that follows them, which is
 * what a link shortener must never hand a visitor (the same reason destinations are http(s) only).
 */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'file:', 'blob:', 'about:', 'filesystem:', 'view-source:', 'jar:']);
const SCHEME = /^[a-z][a-z0-9+.-]*:$/;
const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

const invalid = (why: string) => errors.invalidAppLinks(why);

function checkDeepLink(raw: unknown, field: string, ownHostnames: ReadonlySet<string>): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid(`${field} is required: a deep link URL`);
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) throw invalid(`${field} is longer than ${MAX_URL_LENGTH} characters`);
  // Control characters and spaces are refused outright: URL parsing would strip some of them, and a browser too.
  if (hasControlCharacters(text) || /\s/.test(text)) throw invalid(`${field} must not contain spaces or control characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`${field} must be an absolute URL, such as myapp://path or https://example.com/path`);
  }
  const scheme = url.protocol.toLowerCase();
  if (FORBIDDEN_SCHEMES.has(scheme) || !SCHEME.test(scheme)) throw invalid(`${field} may not use the ${scheme} scheme`);
  if (scheme === 'http:' || scheme === 'https:') return destination(text, field, ownHostnames);
  return url.toString();
}

function destination(raw: unknown, field: string, ownHostnames: ReadonlySet<string>): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid(`${field} is required: an http or https URL`);
  try {
    return checkDestination(raw, ownHostnames);
  } catch (error) {
    throw invalid(`${field}: ${(error as Error).message.replace(/^Invalid URL: /, '')}`);
  }
}

function checkTarget(raw: unknown, platform: Platform, ownHostnames: ReadonlySet<string>): AppTarget {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(`appLinks.${platform} must be an object with deepLink and storeUrl`);
  const input = raw as Record<string, unknown>;
  const allowed = platform === 'android' ? ['deepLink', 'storeUrl', 'package'] : ['deepLink', 'storeUrl'];
  const unknown = Object.keys(input).find((key) => !allowed.includes(key));
  if (unknown) throw invalid(`appLinks.${platform}.${unknown} is not a field; use ${allowed.join(', ')}`);
  const target: AppTarget = {
    deepLink: checkDeepLink(input.deepLink, `appLinks.${platform}.deepLink`, ownHostnames),
    storeUrl: destination(input.storeUrl, `appLinks.${platform}.storeUrl`, ownHostnames),
  };
  if (platform === 'android' && input.package !== undefined && input.package !== null) {
    if (typeof input.package !== 'string' || input.package.length > 255 || !PACKAGE.test(input.package)) {
      throw invalid('appLinks.android.package must be an application id such as com.example.app');
    }
    target.package = input.package;
  }
  return target;
}

/** A link's app targets as given; null means none. */
export function checkAppLinks(raw: unknown, ownHostnames: ReadonlySet<string>): AppLinks | null {
  if (raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('appLinks must be an object with ios and/or android');
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).find((key) => !(PLATFORMS as readonly string[]).includes(key));
  if (unknown) throw invalid(`appLinks.${unknown} is not a platform; use ios or android`);
  const links: AppLinks = {};
  for (const platform of PLATFORMS) if (input[platform] !== undefined && input[platform] !== null) links[platform] = checkTarget(input[platform], platform, ownHostnames);
  // An object naming no platform is a mistake (a misspelt one), not a way to say "none": that is null.
  if (Object.keys(links).length === 0) throw invalid('name at least one platform, ios or android; null removes the app targets');
  return links;
}

const targetFields = {
  deepLink: Type.String({ description: 'Universal/app link (https) or custom-scheme URL (myapp://path); javascript:, data: and kin are refused' }),
  storeUrl: Type.String({ description: 'The store page (http or https) for visitors without the app' }),
};
const IosTarget = named(
  'IosAppTarget',
  'Where an iPhone visitor goes: the app, or its store page when the app is not installed',
  Type.Object(targetFields, { additionalProperties: false }),
);
const AndroidTarget = named(
  'AndroidAppTarget',
  'Where an Android visitor goes: the app, or its store page when the app is not installed',
  Type.Object({ ...targetFields, package: Type.Optional(Type.String({ description: 'Application id, such as com.example.app' })) }, { additionalProperties: false }),
);

/** The `appLinks` of a link's input: checked by `checkAppLinks` too, for surfaces whose input skips this schema. */
export const AppLinksInput = named(
  'AppLinksInput',
  'Web2app (Pro and above): iPhone and Android visitors are sent to the app, with the store as fallback; null removes them',
  Type.Object({ ios: Type.Optional(IosTarget), android: Type.Optional(AndroidTarget) }, { additionalProperties: false, minProperties: 1 }),
);

/** The `appLinks` of a link's JSON: null when the link has none. */
export const AppLinksOutput = named(
  'AppLinks',
  "The link's app targets (web2app); null when it has none",
  Nullable(Type.Object({ ios: Type.Optional(IosTarget), android: Type.Optional(AndroidTarget) })),
);
