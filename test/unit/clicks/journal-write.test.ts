import { describe, expect, it } from 'vitest';
import { JournalWrite } from '../../../src/clicks/journal-write.js';

describe('JournalWrite', () => {
  it('lets what waits go on only once the write is done, in order, awaited or handed over', async () => {
    const errors: unknown[] = [];
    const write = new JournalWrite((error) => errors.push(error));
    const seen: string[] = [];
    const awaited = (async () => {
      await write;
      seen.push('awaited');
    })();
    write.after((a: string, b: number) => seen.push(`${a}${b}`), 'first', 1);
    write.after(() => {
      throw new Error('socket gone');
    }, null, null);
    write.after((a: string, b: number) => seen.push(`${a}${b}`), 'second', 2);
    await Promise.resolve();
    expect(seen).toEqual([]);
    write.done();
    await awaited;
    // A waiter that throws is reported and holds nobody else up.
    expect(seen).toEqual(['first1', 'second2', 'awaited']);
    expect(errors).toHaveLength(1);
    // Awaiting a write that is already done does not wait.
    await expect(Promise.race([Promise.resolve(write).then(() => 'done'), new Promise((r) => setTimeout(() => r('stuck'), 200))])).resolves.toBe('done');
  });
});
