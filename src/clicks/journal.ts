import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBase62 } from '../ids.js';
import type { Visit } from './visit.js';
import type { FoldedVisit } from './visit-profile.js';

export interface JournalPosition {
  segment: number;
  offset: number;
}

const SEGMENT_BYTES = 8 * 1024 * 1024;
const segmentName = (n: number) => `segment-${String(n).padStart(8, '0')}.log`;
const LOCK = 'owner';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const SEPARATORS = /[\t\n\r]/;
const clean = (text: string | null): string => (text === null ? '' : SEPARATORS.test(text) ? text.replace(/[\t\n\r]/g, ' ') : text);

/**
 * One visit per line, tab-separated: cheaper to write than JSON on the redirect path, and as easy to read. A line is
 * its profile's head, the moment and its profile's tail (one for each counted flag), made once per profile.
 */
export function lineOf({ profile: p, atMs, counted }: FoldedVisit): string {
  if (p.line === undefined) {
    const middle = `\t${p.visitor}\t${clean(p.country)}\t${clean(p.region)}\t${clean(p.city)}\t${clean(p.userAgent)}\t${clean(p.referrer)}\t`;
    const end = `\t${clean(p.agent)}\t${p.address}\t${clean(p.destination)}\n`;
    p.line = { head: `${p.linkId}\t${p.accountId}\t`, tails: [`${middle}0${end}`, `${middle}1${end}`] };
  }
  return p.line.head + atMs + p.line.tails[counted ? 1 : 0];
}

function parseLine(line: string): Visit | null {
  const f = line.split('\t');
  // Ten fields: a journal written before agent clicks were counted apart (issue 18); eleven: before the address
  // was kept (issue 26); twelve: before the destination reached was (issue 30). All are read the same way.
  if (f.length < 10 || f.length > 13 || !/^\d+$/.test(f[2]!)) return null;
  const orNull = (x: string) => (x === '' ? null : x);
  return {
    linkId: f[0]!,
    accountId: f[1]!,
    atMs: Number(f[2]),
    visitor: f[3]!,
    country: orNull(f[4]!),
    region: orNull(f[5]!),
    city: orNull(f[6]!),
    userAgent: f[7]!,
    referrer: orNull(f[8]!),
    counted: f[9] === '1',
    agent: orNull(f[10] ?? ''),
    address: f[11] ?? '',
    destination: orNull(f[12] ?? ''),
  };
}

/** Journals this process has open or is replaying: never orphans, whatever the pid says. */
const inUseHere = new Set<string>();

/** `host pid` of a journal's owner; 'unknown' while it is being created (no owner file yet). */
function ownerOf(dir: string): { host: string; pid: number } | 'unknown' | null {
  try {
    const [host = '', pid = '0'] = fs.readFileSync(path.join(dir, LOCK), 'utf8').trim().split(' ');
    return { host, pid: Number(pid) || 0 };
  } catch {
    try {
      return Date.now() - fs.statSync(dir).mtimeMs < 60_000 ? 'unknown' : null;
    } catch {
      return 'unknown'; // gone already (adopted by another process)
    }
  }
}

/**
 * Whether the process behind a journal (or an adoption) is gone. Only this machine's processes can be judged;
 * the same pid as ours with a journal we do not hold is an earlier life of this pid (a container restarted).
 */
function ownerGone(owner: { host: string; pid: number } | null): boolean {
  if (!owner) return true;
  if (owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return true;
  return !(owner.pid > 0 && processAlive(owner.pid));
}

/**
 * The write-ahead log of counted visits. A redirect appends its visit with one write() before answering, so a
 * visit whose redirect was answered is in the operating system's hands even if the process is killed the next
 * instant; the recorder commits visits to the database in batches and records how far it got (the checkpoint).
 * Each process owns one journal directory (marked by its pid); a restart adopts journals whose owner is gone.
 */
export class ClickJournal {
  private fd: number;
  private segment = 0;
  private size = 0;

  private constructor(
    readonly id: string,
    private readonly dir: string,
  ) {
    this.fd = this.openSegment(0);
  }

  static create(root: string): ClickJournal {
    const id = `j${Date.now().toString(36)}${randomBase62(6)}`;
    const dir = path.join(root, id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, LOCK), `${os.hostname()} ${process.pid}`, { flag: 'wx' });
    inUseHere.add(id);
    return new ClickJournal(id, dir);
  }

  /**
   * Takes over the journals under `root` whose owner is gone (a crashed or killed process), oldest first,
   * including ones whose adopter died while replaying. The rename is atomic, so two processes starting
   * together never both replay one journal.
   */
  static adoptOrphans(root: string): { id: string; dir: string }[] {
    if (!fs.existsSync(root)) return [];
    const adopted: { id: string; dir: string }[] = [];
    for (const name of fs.readdirSync(root).sort()) {
      const [id = '', adopter] = name.split('.adopted-');
      if (inUseHere.has(id)) continue;
      const dir = path.join(root, name);
      if (adopter !== undefined) {
        const cut = adopter.lastIndexOf('-');
        if (!ownerGone({ host: adopter.slice(0, cut), pid: Number(adopter.slice(cut + 1)) })) continue;
      } else {
        const owner = ownerOf(dir);
        if (owner === 'unknown' || !ownerGone(owner)) continue;
      }
      const target = path.join(root, `${id}.adopted-${os.hostname()}-${process.pid}`);
      try {
        if (dir !== target) fs.renameSync(dir, target);
        inUseHere.add(id);
        adopted.push({ id, dir: target });
      } catch {
        // another process adopted it first
      }
    }
    return adopted;
  }

  /**
   * Every visit in a journal after `from`, in order, the position where the readable part ends, and how many
   * segment files were read.
   */
  static read(dir: string, from: JournalPosition | null): { visits: Visit[]; end: JournalPosition; segments: number } {
    const visits: Visit[] = [];
    let end: JournalPosition = from ?? { segment: 0, offset: 0 };
    const segments = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('segment-'))
      .map((f) => Number(f.slice(8, 16)))
      .sort((a, b) => a - b);
    let read = 0;
    for (const n of segments) {
      if (from && n < from.segment) continue;
      read += 1;
      const data = fs.readFileSync(path.join(dir, segmentName(n)));
      const start = from && n === from.segment ? from.offset : 0;
      const readable = data.subarray(0, data.lastIndexOf(0x0a) + 1); // a torn last line was never acknowledged
      for (const line of readable.subarray(Math.min(start, readable.length)).toString('utf8').split('\n')) {
        if (!line) continue;
        const visit = parseLine(line);
        if (visit) visits.push(visit); // an unreadable line cannot be recovered; later ones still count
      }
      end = { segment: n, offset: Math.max(start, readable.length) };
    }
    return { visits, end, segments: read };
  }

  static remove(dir: string, id: string): void {
    fs.rmSync(dir, { recursive: true, force: true });
    inUseHere.delete(id);
  }

  /**
   * Appends visits' lines (`lineOf`) with one synchronous write() and returns the position after them. Redirects
   * answer only after this returns, so an answered visit is in the operating system's hands even if the process is
   * killed the next instant.
   */
  append(lines: string): JournalPosition {
    if (this.size >= SEGMENT_BYTES) {
      // Open the next segment before letting go of this one, so a failure leaves the journal writable.
      const next = this.openSegment(this.segment + 1);
      fs.closeSync(this.fd);
      this.fd = next;
      this.segment += 1;
      this.size = 0;
    }
    const bytes = Buffer.from(lines, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) written += fs.writeSync(this.fd, bytes, written);
    } finally {
      this.size += written; // positions stay true to the file even after a failed write
    }
    return { segment: this.segment, offset: this.size };
  }

  /** After a checkpoint: segments wholly before the committed one are no longer needed. */
  compact(committed: JournalPosition): void {
    for (const f of fs.readdirSync(this.dir)) {
      if (f.startsWith('segment-') && Number(f.slice(8, 16)) < committed.segment) fs.rmSync(path.join(this.dir, f), { force: true });
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  /** On a clean shutdown everything is committed, so the journal is no longer needed. */
  discard(): void {
    this.close();
    ClickJournal.remove(this.dir, this.id);
  }

  private openSegment(n: number): number {
    return fs.openSync(path.join(this.dir, segmentName(n)), 'a');
  }
}
