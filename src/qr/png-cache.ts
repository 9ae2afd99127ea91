/**
 * The last rendered images, keyed by their ETag hash, so a popular code is drawn once and not on every scan. A Map
 * keeps insertion order: a hit re-inserts its key at the young end, and the first key is the least recently used.
 * Bounded by count; a rendered QR PNG is 1 bit per pixel, a few kilobytes at most.
 */
export class PngCache {
  private readonly entries = new Map<string, Buffer>();

  constructor(private readonly capacity = 500) {}

  get(key: string): Buffer | undefined {
    const png = this.entries.get(key);
    if (png) {
      this.entries.delete(key);
      this.entries.set(key, png);
    }
    return png;
  }

  set(key: string, png: Buffer): void {
    this.entries.delete(key);
    this.entries.set(key, png);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
