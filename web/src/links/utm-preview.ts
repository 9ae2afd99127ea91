import { applyUtm } from '../../../src/utm/apply';
import type { UtmTemplate } from './api';

/**
 * The destination a new link gets with a UTM template, written by the server's own function (src/utm/apply.ts
 * `applyUtm`), so the preview shows exactly what the link will hold (`black%20friday`, never `black+friday`). The
 * server reads the destination as a WHATWG URL and writes it back before adding the parameters; so does this. Null
 * while the text is no absolute http(s) URL: the server would refuse it.
 */
export function withUtm(destination: string, template: Pick<UtmTemplate, 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent'>): string | null {
  let url: URL;
  try {
    url = new URL(destination.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const { utmSource, utmMedium, utmCampaign, utmTerm, utmContent } = template;
  return applyUtm(url, { utmSource, utmMedium, utmCampaign, utmTerm, utmContent });
}
