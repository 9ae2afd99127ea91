// A link's app targets (web2app) as services and the redirect hand them around, and as the links table stores them.
// Checking them is src/web2app/app-links.ts's; this file imports nothing, so a `Link` can carry them without
// depending on the rules that check them.

export type Platform = 'ios' | 'android';
export const PLATFORMS: readonly Platform[] = ['ios', 'android'];

export interface AppTarget {
  /** A universal or app link (https) or a custom-scheme URL (myapp://path, intent://…). */
  deepLink: string;
  /** The App Store or Play Store page: where a visitor without the app goes. */
  storeUrl: string;
  /** Android only: the application id, such as com.example.app. */
  package?: string;
}

export type AppLinks = Partial<Record<Platform, AppTarget>>;

/** The stored JSON of a link's app targets (the links table's app_links); null when it has none. */
export const parseAppLinks = (stored: string | null): AppLinks | null => (stored === null ? null : (JSON.parse(stored) as AppLinks));
