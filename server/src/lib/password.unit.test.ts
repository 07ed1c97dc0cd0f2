import argon2 from 'argon2';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HashingInterrupted, HashingThreads, PasswordHasher } from './password.ts';

// Cheap parameters: the threads and the format, not the hash's cost, are under test.
const hasher = new PasswordHasher({ memoryCost: 1024, timeCost: 1 });
const cheap = { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/** The worker threads started while `work` runs (Node's `worker` event on `process`). */
async function threadsStartedBy<T>(work: () => Promise<T>): Promise<{ result: T; started: Worker[] }> {
  const started: Worker[] = [];
  const note = (worker: Worker) => started.push(worker);
  process.on('worker', note);
  try {
    return { result: await work(), started };
  } finally {
    process.off('worker', note);
  }
}

describe('PasswordHasher', () => {
  it('writes hashes as the argon2 package did, and each reads the other’s (agent/src/ftp-auth.ts verifies with it)', async () => {
    const ours = await hasher.hash('correct horse battery staple');
    expect(ours).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await argon2.verify(ours, 'correct horse battery staple')).toBe(true);
    expect(await argon2.verify(ours, 'correct horse battery stapler')).toBe(false);

    const theirs = await argon2.hash('tr0ub4dor&3', cheap);
    expect(await hasher.verify(theirs, 'tr0ub4dor&3')).toBe(true);
    expect(await hasher.verify(theirs, 'tr0ub4dor&4')).toBe(false);
    // Other argon2 types and parameters are read off the hash itself.
    const argon2i = await argon2.hash('old one', { ...cheap, type: argon2.argon2i, timeCost: 3, memoryCost: 2048 });
    expect(await hasher.verify(argon2i, 'old one')).toBe(true);
  });

  it('answers false for a hash it cannot read or run, and goes on answering', async () => {
    const good = await hasher.hash('again');
    const unreadable = [
      'not a hash',
      '',
      good.replace('$v=19', '$v=16'),
      good.replace('argon2id', 'scrypt'),
      good.replace('m=1024', 'm=1'), // below what argon2 allows (8 KiB per lane): OpenSSL refuses it
      good.replace('m=1024', 'm=abc'),
      good.replace('m=1024', 'm=1024.5'),
      good.slice(0, good.lastIndexOf('$')),
    ];
    for (const hash of unreadable) expect(await hasher.verify(hash, 'again')).toBe(false);
    expect(await hasher.verify(good, 'again')).toBe(true);
  });

  it('answers every one of 30 hashes and verifies sent at once right, on one thread per core', async () => {
    const pool = new HashingThreads(availableParallelism());
    const hash = await argon2.hash('right', cheap);
    const { result, started } = await threadsStartedBy(() =>
      Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          index % 3 === 0
            ? pool.run({ op: 'hash', password: `password ${index}`, memoryCost: 1024, timeCost: 1 })
            : pool.run({ op: 'verify', hash, password: index % 3 === 1 ? 'right' : 'wrong' }),
        ),
      ),
    );
    // Each thread runs one hash at a time, so the threads are the limit: one per core, never more.
    expect(started).toHaveLength(availableParallelism());
    for (const [index, answer] of result.entries()) {
      if (index % 3 === 0) expect(await argon2.verify(answer as string, `password ${index}`)).toBe(true);
      else expect(answer).toBe(index % 3 === 1);
    }
  });

  it('a thread stopped under its tasks fails them as interrupted, and the next task gets a new thread', async () => {
    const pool = new HashingThreads(1);
    const hash = await argon2.hash('right', { ...cheap, memoryCost: 65_536, timeCost: 4 });
    const started = once(process, 'worker') as Promise<[Worker]>;
    const running = [pool.run({ op: 'verify', hash, password: 'right' }), pool.run({ op: 'verify', hash, password: 'right' })];
    const [thread] = await started;
    await thread.terminate();
    for (const task of running) await expect(task).rejects.toBeInstanceOf(HashingInterrupted);

    const replaced = once(process, 'worker');
    expect(await pool.run({ op: 'verify', hash, password: 'right' })).toBe(true);
    await replaced;
  });

  it('leaves no thread holding a program open once its hashes are done (the CLI hashes one at a time, then exits)', async () => {
    const program = `
      const { PasswordHasher } = await import(${JSON.stringify(new URL('./password.ts', import.meta.url).href)});
      const hasher = new PasswordHasher({ memoryCost: 1024, timeCost: 1 });
      const hashes = [];
      for (const password of ['a', 'b', 'c']) hashes.push(await hasher.hash(password));
      console.log(await hasher.verify(hashes[0], 'a'), await hasher.verify(hashes[1], 'a'));`;
    // Killed after 20 s if a thread held it open: the test then fails on the error.
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', program], { timeout: 20_000 });
    expect(stdout.trim()).toBe('true false');
  });
});
