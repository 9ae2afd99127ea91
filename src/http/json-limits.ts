import { errors } from '../errors.js';

/**
 * How deep objects and arrays may nest in a JSON body (REST) and in an MCP tool call's arguments. No input of Snip
 * needs more than a handful of levels; the bound keeps every recursive step after parsing (validation, copies,
 * serialisation, the NUL search) far from the stack's end, whatever a client sends within the body size limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects and arrays more than `max` levels deep (the value itself is level 1). Iterative, so
 * a value nested 500,000 deep is measured without recursion; it stops at the first node past `max`.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[object, number]> = value !== null && typeof value === 'object' ? [[value, 1]] : [];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push([child as object, depth + 1]);
    }
  }
  return false;
}

/** The 400 of a REST body nested past the bound. */
export const tooDeep = () => errors.invalidBody(`The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);

/** A step of a path into a JSON value, linked to its parent's, so a deep walk does not copy paths. */
interface Step {
  key: string | number;
  parent: Step | null;
}

const pathOf = (step: Step | null): Array<string | number> => {
  const path: Array<string | number> = [];
  for (let at = step; at !== null; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * Where a NUL (U+0000) of a parsed JSON value is: the path of a string holding one, or of an object with such a key;
 * null when there is none. Iterative, for values of any depth (an MCP POST is searched before its depth is checked).
 */
export function nulPathOf(value: unknown): Array<string | number> | null {
  const pending: Array<[unknown, Step | null]> = [[value, null]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, step] = next;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return pathOf(step);
    } else if (Array.isArray(node)) {
      node.forEach((child, key) => pending.push([child, { key, parent: step }]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (key.includes('\u0000')) return pathOf(step);
        pending.push([child, { key, parent: step }]);
      }
    }
  }
  return null;
}
