import { Type, type Static } from '@sinclair/typebox';
import ipaddr from 'ipaddr.js';
import { sourceOf } from '../net/address-source.js';
import { memo } from '../runtime/memo.js';
import { AppError } from '../errors.js';
import { StringEnum } from '../schema/shapes.js';
import { checkOtherDestination } from './rules.js';

/**
 * Where a visit goes between the click and the destination: ordered rules (every condition of a rule must match; the
 * first rule that matches wins), then an A/B split of the default destination. The schemas are link fields
 * (src/links/input.ts); `checkRouting` holds what a schema cannot say; `compileRouting` and `route` decide a visit,
 * on the redirect path, without I/O.
 */

export const DEVICES = ['ios', 'android', 'mobile', 'desktop', 'windows', 'macos', 'linux', 'chromeos'] as const;
export type DeviceName = (typeof DEVICES)[number];

const Destination = Type.String({ format: 'uri', description: 'Where the visit goes: an absolute http or https URL' });

export const CONDITION_TYPES = ['device', 'country', 'language', 'query', 'address'] as const;

/**
 * One condition of a rule. One object with a `type` rather than a union of five: function-calling APIs and strict
 * MCP clients take a plain object (src/mcp/json-schema.ts), and what each type asks of `value` and `key` is checked
 * by `checkRules`, in words naming the condition.
 */
export const Condition = Type.Object(
  {
    type: StringEnum(CONDITION_TYPES, { description: 'device, country, language, query or address' }),
    value: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'device: ios, android, mobile, desktop, windows, macos, linux or chromeos; country: ISO 3166-1 alpha-2 (from the visitor’s address); language: a tag such as fr (matches fr and fr-CA in Accept-Language); query: the parameter’s value (absent: any value); address: an IPv4 or IPv6 address or CIDR range',
      }),
    ),
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'query only: the query parameter of the short URL' })),
  },
  { additionalProperties: false },
);
export type Condition = Static<typeof Condition>;

export const Rule = Type.Object(
  { conditions: Type.Array(Condition, { minItems: 1, maxItems: 10, description: 'All must match' }), url: Destination },
  { additionalProperties: false },
);
export type Rule = Static<typeof Rule>;

export const Rules = Type.Array(Rule, { maxItems: 20, description: 'Ordered redirect rules: the first whose conditions all match sends the visitor to its url' });

export const Variant = Type.Object({ url: Destination, weight: Type.Integer({ minimum: 1, maximum: 100, description: 'Percent of visitors' }) }, { additionalProperties: false });
export type Variant = Static<typeof Variant>;

export const Variants = Type.Array(Variant, {
  minItems: 2,
  maxItems: 4,
  description: 'An A/B split of the default destination: weights add up to 100; a visitor keeps its variant',
});

/** Refuses a rule or variant by what the schema could not check, naming it as the caller wrote it. */
const refuse = (field: 'rules' | 'variants', where: string, why: string) => new AppError(field === 'rules' ? 'INVALID_RULES' : 'INVALID_VARIANTS', `${field}${where} ${why}`);

const checkedUrl = (field: 'rules' | 'variants', where: string, url: string, ownHostnames: ReadonlySet<string>): string =>
  checkOtherDestination(url, ownHostnames, (why) => refuse(field, `${where}.url`, why));

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** A condition as stored, or why it cannot be: each type takes its own fields. */
function checkedCondition(condition: Condition, where: string): Condition {
  const { type, value, key } = condition;
  const bad = (why: string) => refuse('rules', where, why);
  if (type !== 'query' && key !== undefined) throw bad('has a key, which only a query condition takes');
  if (type !== 'query' && value === undefined) throw bad(`needs a value for its ${type}`);
  switch (type) {
    case 'device':
      if (!(DEVICES as readonly string[]).includes(value!)) throw bad(`value must be one of ${DEVICES.join(', ')}`);
      return { type, value };
    case 'country':
      if (!/^[A-Za-z]{2}$/.test(value!)) throw bad('value must be a two-letter country code, like DE');
      return { type, value: value!.toUpperCase() };
    case 'language':
      if (!LANGUAGE_TAG.test(value!)) throw bad('value must be a language tag, like fr or fr-CA');
      return { type, value };
    case 'address':
      if (addressMatcher(value!) === null) throw bad('value must be an IPv4 or IPv6 address or a CIDR range, like 203.0.113.0/24');
      return { type, value };
    case 'query':
      if (key === undefined) throw bad('needs the key of the query parameter');
      return value === undefined ? { type, key } : { type, key, value };
  }
}

/** Rules as stored: URLs as the destination rules normalise them, each condition with only its own fields. */
export function checkRules(rules: Rule[], ownHostnames: ReadonlySet<string>): Rule[] | null {
  if (rules.length === 0) return null;
  return rules.map((rule, i) => ({
    url: checkedUrl('rules', `[${i}]`, rule.url, ownHostnames),
    conditions: rule.conditions.map((condition, j) => checkedCondition(condition, `[${i}].conditions[${j}]`)),
  }));
}

/** Variants as stored: their weights must add up to 100. */
export function checkVariants(variants: Variant[], ownHostnames: ReadonlySet<string>): Variant[] {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  if (total !== 100) throw refuse('variants', '', `weights must add up to 100 (they add up to ${total})`);
  return variants.map((v, i) => ({ url: checkedUrl('variants', `[${i}]`, v.url, ownHostnames), weight: v.weight }));
}

/** What a visit is routed by; each part is read only when a condition asks for it. */
export interface RoutingVisitor {
  /** The user agent's system and device type (src/clicks/user-agent.ts `software`). */
  software(): { os: string; device: 'desktop' | 'mobile' | 'tablet' };
  country(): string | undefined;
  acceptLanguage: string | undefined;
  query: string;
  address: string;
  /** A number in [0, 100) the same for the same visitor of the same link: which variant it gets. */
  bucket(): number;
}

export type RouteReason = 'rule' | 'variant' | 'destination';
export interface Routed {
  url: string;
  reason: RouteReason;
  rule?: number;
}

type Test = (visitor: RoutingVisitor, memo: Memo) => boolean;
interface Memo {
  languages?: readonly string[];
  query?: URLSearchParams;
  address?: Address | null;
}

const LINUXES = new Set(['Linux', 'Ubuntu', 'Debian', 'Fedora', 'Arch', 'Mint', 'Gentoo', 'CentOS', 'RedHat', 'SUSE', 'Slackware', 'Kubuntu', 'Xubuntu']);
const DEVICE_TESTS: Record<DeviceName, (s: { os: string; device: string }) => boolean> = {
  ios: (s) => s.os === 'iOS',
  android: (s) => s.os === 'Android',
  mobile: (s) => s.device !== 'desktop',
  desktop: (s) => s.device === 'desktop',
  windows: (s) => s.os === 'Windows',
  macos: (s) => s.os === 'Mac OS' || s.os === 'macOS',
  linux: (s) => LINUXES.has(s.os),
  chromeos: (s) => s.os === 'Chromium OS' || s.os === 'Chrome OS',
};

/** Parsed Accept-Language headers: browsers send a few dozen distinct ones, and parsing one cost more than all the rules. */
const parsedLanguages = memo((header: string): readonly string[] => Object.freeze(parseLanguages(header)), 1_000);

/** The language tags of an Accept-Language header the visitor accepts (q > 0), lower case, best first. */
export function acceptedLanguages(header: string | undefined): readonly string[] {
  return header ? parsedLanguages(header) : [];
}

function parseLanguages(header: string): string[] {
  return header
    .split(',')
    .slice(0, 50)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag !== '' && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const ADDRESSES_REMEMBERED = 1_000;
/** Parsed addresses of recent visitors: parsing one cost a routed redirect more than its rules (bench/redirect.ts). */
const parsedAddresses = new Map<string, Address | null>();

/** A visitor's address as address rules compare it: an IPv4-mapped IPv6 address (::ffff:203.0.113.9) is its IPv4 one. */
function parsedAddress(address: string): Address | null {
  const remembered = parsedAddresses.get(address);
  if (remembered !== undefined) return remembered;
  let parsed: Address | null = null;
  if (ipaddr.isValid(address)) {
    const any = ipaddr.parse(address);
    parsed = any.kind() === 'ipv6' && (any as ipaddr.IPv6).isIPv4MappedAddress() ? (any as ipaddr.IPv6).toIPv4Address() : any;
  }
  // Made-up addresses cannot grow it: past the bound it starts again.
  if (parsedAddresses.size >= ADDRESSES_REMEMBERED) parsedAddresses.clear();
  parsedAddresses.set(address, parsed);
  return parsed;
}

/** An address or CIDR range as a test of a parsed address, or null when it is neither. */
function rangeTest(value: string): ((address: Address | null) => boolean) | null {
  try {
    const [range, bits] = value.includes('/') ? ipaddr.parseCIDR(value) : [ipaddr.parse(value), null];
    const prefix = bits ?? (range.kind() === 'ipv4' ? 32 : 128);
    return (address) => address !== null && address.kind() === range.kind() && address.match(range, prefix);
  } catch {
    return null;
  }
}

/** An address or CIDR range as a test of an address, or null when it is neither. */
export function addressMatcher(value: string): ((address: string) => boolean) | null {
  const test = rangeTest(value);
  return test === null ? null : (address) => test(parsedAddress(address));
}

function testOf(condition: Condition): Test {
  switch (condition.type) {
    case 'device': {
      const test = DEVICE_TESTS[condition.value as DeviceName] ?? (() => false);
      return (visitor) => test(visitor.software());
    }
    case 'country': {
      const country = (condition.value ?? '').toUpperCase();
      return (visitor) => visitor.country() === country;
    }
    case 'language': {
      const wanted = (condition.value ?? '').toLowerCase();
      const region = `${wanted}-`;
      return (visitor, memo) => (memo.languages ??= acceptedLanguages(visitor.acceptLanguage)).some((tag) => tag === wanted || tag.startsWith(region));
    }
    case 'query': {
      const { value } = condition;
      const key = condition.key ?? '';
      return (visitor, memo) => {
        if (visitor.query === '') return false;
        const query = (memo.query ??= new URLSearchParams(visitor.query));
        return value === undefined ? query.has(key) : query.getAll(key).includes(value);
      };
    }
    case 'address': {
      const matches = rangeTest(condition.value ?? '') ?? (() => false);
      // The visitor's address is parsed once per visit, whatever the number of address rules.
      return (visitor, memo) => matches(memo.address === undefined ? (memo.address = parsedAddress(visitor.address)) : memo.address);
    }
  }
}

/** A link's routing made ready once per cache fill: the rules as tests, the variants as cumulative bounds. */
export interface CompiledRouting {
  rules: { tests: Test[]; url: string }[];
  variants: { below: number; url: string }[] | null;
}

export function compileRouting(rules: Rule[] | null, variants: Variant[] | null): CompiledRouting | null {
  if (rules === null && variants === null) return null;
  let total = 0;
  return {
    rules: (rules ?? []).map((rule) => ({ tests: rule.conditions.map(testOf), url: rule.url })),
    variants: variants === null ? null : variants.map((v) => ({ below: (total += v.weight), url: v.url })),
  };
}

/** Where a visitor of a link with routing goes: the first matching rule, else its variant, else the destination. */
export function route(routing: CompiledRouting, destination: string, visitor: RoutingVisitor): Routed {
  const memo: Memo = {};
  // Plain loops: this runs on every visit of a routed link, and iterators and callbacks cost it a tenth.
  for (let index = 0; index < routing.rules.length; index++) {
    const rule = routing.rules[index]!;
    let matches = true;
    for (let t = 0; matches && t < rule.tests.length; t++) matches = rule.tests[t]!(visitor, memo);
    if (matches) return { url: rule.url, reason: 'rule', rule: index };
  }
  if (routing.variants !== null) {
    const bucket = visitor.bucket();
    const variant = routing.variants.find((v) => bucket < v.below) ?? routing.variants.at(-1)!;
    return { url: variant.url, reason: 'variant' };
  }
  return { url: destination, reason: 'destination' };
}

/**
 * A visitor's place in a link's A/B split, 0-99: the same for the same address (an IPv6 /64 is one) and browser on
 * the same link, day after day, with nothing stored; different links split the same visitors independently. FNV-1a:
 * nothing here is secret (the split is no security boundary), and it costs a fraction of a SHA-256 per visit.
 */
export function variantBucket(linkId: string, address: string, userAgent: string): number {
  // `linkId|source|userAgent`, hashed part by part rather than joined first (a string per visit).
  let hash = fnv(fnv(fnv(fnv(fnv(0x811c9dc5, linkId), '|'), sourceOf(address)), '|'), userAgent);
  // The low bits of FNV-1a mix worst; a final avalanche spreads every input bit over the result.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return (hash >>> 0) % 100;
}

/** FNV-1a over `text`, continuing from `hash`. */
function fnv(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}
