import type { SourceFactory, SourceName } from '../source.js';
import { bitlySource } from './bitly.js';
import { dubSource } from './dub.js';
import { kuttSource } from './kutt.js';
import { shlinkSource } from './shlink.js';
import { yourlsSource } from './yourls.js';

/** The adapter of each source. */
export const SOURCES: Record<SourceName, SourceFactory> = {
  shlink: shlinkSource,
  kutt: kuttSource,
  yourls: yourlsSource,
  bitly: bitlySource,
  dub: dubSource,
};

/** The public API of the hosted services, used when no --source is given; the self-hosted ones have none. */
export const DEFAULT_SOURCE_BASES: Partial<Record<SourceName, string>> = {
  bitly: 'https://api-ssl.bitly.com',
  dub: 'https://api.dub.co',
};

export { sourceUrl } from './shared.js';
