import type { Body } from '../api';
import type { Link } from '../links/api';

/**
 * The routing editor's working copy of a link's routing fields, and the one PATCH body that turns the saved link into
 * it. Fields are kept as the inputs hold them (strings), so switching a condition's type or clearing a weight never
 * loses what was typed; they become the API's shapes only in `changesFrom`.
 */

export type Changes = Body<'/api/links/{shortPath}', 'patch'>;
export type Rule = NonNullable<Link['rules']>[number];
export type Condition = Rule['conditions'][number];
export type ConditionType = Condition['type'];
/** The devices a device condition names (the server's DEVICES, src/links/routing.ts, which checks them). */
export type Device = 'ios' | 'android' | 'mobile' | 'desktop' | 'windows' | 'macos' | 'linux' | 'chromeos';
export type Variant = NonNullable<Link['variants']>[number];

export const DEVICES: readonly Device[] = ['ios', 'android', 'mobile', 'desktop', 'windows', 'macos', 'linux', 'chromeos'];
export const CONDITION_TYPES: readonly { value: ConditionType; label: string }[] = [
  { value: 'device', label: 'Device' },
  { value: 'country', label: 'Country' },
  { value: 'language', label: 'Language' },
  { value: 'query', label: 'Query parameter' },
  { value: 'address', label: 'IP address or range' },
];
export const MAX_RULES = 20;
export const MAX_CONDITIONS = 10;
export const MAX_VARIANTS = 4;

/** Draft entries carry an id of their own: React keys, and focus that follows a rule when it moves. */
export interface DraftCondition {
  id: number;
  type: ConditionType;
  value: string;
  key: string;
}
export interface DraftRule {
  id: number;
  conditions: DraftCondition[];
  url: string;
}
export interface DraftVariant {
  id: number;
  url: string;
  weight: number | '';
}
/** keep: leave the password as it is (none, or the one set); set: this new one; remove: none any more. */
export type PasswordChange = { kind: 'keep' } | { kind: 'set'; value: string } | { kind: 'remove' };

export interface RoutingDraft {
  rules: DraftRule[];
  variants: DraftVariant[];
  password: PasswordChange;
  expiredUrl: string;
  title: string;
  description: string;
  image: string;
}

let lastId = 0;
export const nextId = (): number => ++lastId;

export const newCondition = (): DraftCondition => ({ id: nextId(), type: 'device', value: 'ios', key: '' });
export const newRule = (): DraftRule => ({ id: nextId(), conditions: [newCondition()], url: '' });
export const newVariant = (): DraftVariant => ({ id: nextId(), url: '', weight: '' });

export type RoutingFields = Pick<Link, 'rules' | 'variants' | 'passwordProtected' | 'expiredUrl' | 'socialPreview'>;

export function draftOf(link: RoutingFields): RoutingDraft {
  return {
    rules: (link.rules ?? []).map((rule) => ({
      id: nextId(),
      url: rule.url,
      conditions: rule.conditions.map((c) => ({ id: nextId(), type: c.type, value: c.value ?? '', key: c.key ?? '' })),
    })),
    variants: (link.variants ?? []).map((v) => ({ id: nextId(), url: v.url, weight: v.weight })),
    password: { kind: 'keep' },
    expiredUrl: link.expiredUrl ?? '',
    title: link.socialPreview?.title ?? '',
    description: link.socialPreview?.description ?? '',
    image: link.socialPreview?.image ?? '',
  };
}

function conditionOf(c: DraftCondition): Condition {
  switch (c.type) {
    case 'device':
      return { type: 'device', value: c.value as Device };
    case 'query':
      // No value: the parameter present with any value.
      return c.value.trim() === '' ? { type: 'query', key: c.key.trim() } : { type: 'query', key: c.key.trim(), value: c.value };
    default:
      return { type: c.type, value: c.value.trim() };
  }
}

export const rulesOf = (draft: RoutingDraft): Rule[] => draft.rules.map((r) => ({ conditions: r.conditions.map(conditionOf), url: r.url.trim() }));

export const variantTotal = (variants: DraftVariant[]): number => variants.reduce((sum, v) => sum + (v.weight === '' ? 0 : v.weight), 0);

/** What the editor refuses before asking the server: a split that cannot be right. */
export function variantsProblem(variants: DraftVariant[]): string | null {
  if (variants.length === 0) return null;
  if (variants.length === 1) return 'An A/B split needs 2 to 4 variants: add another or remove this one.';
  const total = variantTotal(variants);
  if (total !== 100) return `Variant weights must add up to 100% (they add up to ${total}%).`;
  return null;
}

/** Key order aside: the server may answer an object's keys in another order than they were sent. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]));
  return value;
}
const same = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function socialPreviewOf(draft: RoutingDraft): Changes['socialPreview'] {
  const preview = {
    ...(draft.title.trim() && { title: draft.title.trim() }),
    ...(draft.description.trim() && { description: draft.description.trim() }),
    ...(draft.image.trim() && { image: draft.image.trim() }),
  };
  return Object.keys(preview).length === 0 ? null : preview;
}

/** The fields that differ from the saved link, as one PATCH body; empty when nothing changed. */
export function changesFrom(link: RoutingFields, draft: RoutingDraft): Changes {
  const changes: Changes = {};
  const rules = rulesOf(draft);
  if (!same(rules, link.rules ?? [])) changes.rules = rules.length === 0 ? null : rules;
  const variants = draft.variants.map((v) => ({ url: v.url.trim(), weight: v.weight === '' ? 0 : v.weight }));
  if (!same(variants, link.variants ?? [])) changes.variants = variants.length === 0 ? null : variants;
  if (draft.password.kind === 'set') changes.password = draft.password.value;
  if (draft.password.kind === 'remove' && link.passwordProtected) changes.password = null;
  const expiredUrl = draft.expiredUrl.trim() || null;
  if (expiredUrl !== link.expiredUrl) changes.expiredUrl = expiredUrl;
  const preview = socialPreviewOf(draft);
  if (!same(preview, link.socialPreview ?? null)) changes.socialPreview = preview;
  return changes;
}
