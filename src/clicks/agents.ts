import fs from 'node:fs';
import { LRUCache } from 'lru-cache';
import { assetPath } from '../runtime/package-root.js';

interface AgentEntry {
  name: string;
  token: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The list lives in one data file with each agent's documentation (assets/ai-agents.json). */
const AGENTS: readonly { name: string; pattern: RegExp }[] = (JSON.parse(fs.readFileSync(assetPath('ai-agents.json'), 'utf8')) as { agents: AgentEntry[] }).agents.map(
  (a) => ({ name: a.name, pattern: new RegExp(`(^|[^A-Za-z0-9-])${escape(a.token)}($|[^A-Za-z0-9-])`, 'i') }),
);

/** Names of every agent Snip recognises, in the file's order. */
export const AGENT_NAMES: readonly string[] = AGENTS.map((a) => a.name);

// One test per distinct User-Agent: the same few browsers visit again and again.
const seen = new LRUCache<string, { name: string | null }>({ max: 5_000 });

/** The AI agent or assistant fetcher a User-Agent belongs to, or null for anything else. */
export function agentOf(userAgent: string): string | null {
  let entry = seen.get(userAgent);
  if (entry === undefined) {
    entry = { name: AGENTS.find((a) => a.pattern.test(userAgent))?.name ?? null };
    seen.set(userAgent, entry);
  }
  return entry.name;
}
