import type { Answer, Body } from '../api';
import { snip } from '../api';

export type SourceImportInput = Body<'/api/imports', 'post'>;
export type SourceImportSummary = Answer<'/api/imports', 'post'>;
export type SourceImportRow = SourceImportSummary['rows'][number];
export type SourceName = SourceImportInput['from'];

export interface SourceInfo {
  value: SourceName;
  label: string;
  /** The public API an empty address means; absent: the source is self-hosted and its address is required. */
  publicApi?: string;
  /** What the source calls the key, where that differs from an API key. */
  keyHint: string;
}

export const SOURCES: readonly SourceInfo[] = [
  { value: 'shlink', label: 'Shlink', keyHint: "An API key of the Shlink server (shlink api-key:generate makes one)." },
  { value: 'kutt', label: 'Kutt', keyHint: "The API key from Kutt's settings page." },
  { value: 'yourls', label: 'YOURLS', keyHint: "The secret signature token from YOURLS's Tools page." },
  { value: 'bitly', label: 'Bitly', publicApi: 'https://api-ssl.bitly.com', keyHint: "A generic access token from Bitly's settings (API section)." },
  { value: 'dub', label: 'Dub', publicApi: 'https://api.dub.co', keyHint: "An API key from Dub's workspace settings." },
];

export const sourceInfo = (name: SourceName): SourceInfo => SOURCES.find((s) => s.value === name)!;

/** One run against B's import route: `dryRun` fetches and checks everything and makes nothing. */
export const importFromSource = (body: SourceImportInput) => snip.post('/api/imports', { body });
