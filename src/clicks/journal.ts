import fs from 'node:fs';
import path from 'node:path';
import { randomBase62 } from '../ids.js';
import type { Visit } from './visit.js';

export interface JournalPosition {
  segment: number;
  offset: number;
}

const SEGMENT_BYTES = 8 * 1024 * 1024;
const segmentName = (n: number) => `segment-${String(n).padStart(8, '0')}.log`;
const LOCK = 'owner.pid';

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

/** One visit per line, tab-separated: cheaper to write than JSON on the redirect path, and as easy to read. */
function formatLine(v: Visit): string {
  return `${v.linkId}\t${v.accountId}\t${v.atMs}\t${v.visitor}\t${clean(v.country)}\t${clean(v.region)}\t${clean(v.city)}\t${clean(v.userAgent)}\t${clean(v.referrer)}\t${v.counted ? 1 : 0}\n`;
}

function parseLine(line: string): Visit | null {
  const f = line.split('\t');
  if (f.length !== 10 || !/^\d+$/.test(f[2]!)) return null;
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
  };
}

/** The pid that owns a journal directory; 'unknown' while it is being created (or 0 if it never got one). */
function ownerOf(dir: string): number | 'unknown' {
  try {
    return Number(fs.readFileSync(path.join(dir, LOCK), 'utf8')) || 0;
  } catch {
    try {
      return Date.now() - fs.statSync(dir).mtimeMs < 60_000 ? 'unknown' : 0;
    } catch {
      return 'unknown'; // gone already (adopted by another process)
    }
  }
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
    fs.writeFileSync(path.join(dir, LOCK), String(process.pid), { flag: 'wx' });
    return new ClickJournal(id, dir);
  }

  /**
   * Takes over the journals under `root` whose owner is gone (a crashed or killed process), oldest first. The
   * rename is atomic, so two processes starting together never both replay one journal.
   */
  static adoptOrphans(root: string, ownId: string): { id: string; dir: string }[] {
    if (!fs.existsSync(root)) return [];
    const adopted: { id: string; dir: string }[] = [];
    for (const name of fs.readdirSync(root).sort()) {
      const id = name.split('.')[0]!;
      if (id === ownId || (name.includes('.adopted-') && !name.endsWith(`.adopted-${process.pid}`))) continue;
      const dir = path.join(root, name);
      const owner = ownerOf(dir);
      // Being created by a process starting right now (no owner written yet): not an orphan.
      if (owner === 'unknown') continue;
      // A live owner other than this process keeps its journal; the same pid with another id is a past life.
      if (owner > 0 && owner !== process.pid && processAlive(owner)) continue;
      const target = path.join(root, `${id}.adopted-${process.pid}`);
      try {
        if (dir !== target) fs.renameSync(dir, target);
        adopted.push({ id, dir: target });
      } catch {
        // another process adopted it first
      }
    }
    return adopted;
  }

  /** Every visit in a journal after `from`, in order, and the position where the readable part ends. */
  static read(dir: string, from: JournalPosition | null): { visits: Visit[]; end: JournalPosition } {
    const visits: Visit[] = [];
    let end: JournalPosition = from ?? { segment: 0, offset: 0 };
    const segments = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('segment-'))
      .map((f) => Number(f.slice(8, 16)))
      .sort((a, b) => a - b);
    for (const n of segments) {
      if (from && n < from.segment) continue;
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
    return { visits, end };
  }

  static remove(dir: string): void {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Appends one visit with one synchronous write() and returns the position after it. The redirect answers
   * only after this returns, so an answered visit is in the operating system's hands even if the process is
   * killed the next instant (batching the writes per event-loop turn would answer before writing).
   */
  append(visit: Visit): JournalPosition {
    this.size += fs.writeSync(this.fd, formatLine(visit));
    return { segment: this.segment, offset: this.size };
  }

  /** After a checkpoint: starts a new segment when the current one is large, and drops fully committed ones. */
  compact(committed: JournalPosition): void {
    if (this.size >= SEGMENT_BYTES && committed.segment === this.segment && committed.offset === this.size) {
      fs.closeSync(this.fd);
      this.segment += 1;
      this.size = 0;
      this.fd = this.openSegment(this.segment);
    }
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
    ClickJournal.remove(this.dir);
  }

  private openSegment(n: number): number {
    return fs.openSync(path.join(this.dir, segmentName(n)), 'a');
  }
}
