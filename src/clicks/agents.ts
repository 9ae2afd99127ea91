import fs from 'node:fs';
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

/** The AI agent or assistant fetcher a User-Agent belongs to, or null for anything else (memoised by the caller). */
export function agentOf(userAgent: string): string | null {
  return AGENTS.find((a) => a.pattern.test(userAgent))?.name ?? null;
}
