/**
 * What a crash or a killed process can leave behind, cleared away: temporary upload files (in a
 * folder per process inside the data folder, so the leftovers of a dead one are known), media
 * files half-written when a process stopped (`*.part`), and stored files no row names (a process
 * stopped between storing a file and writing its row). Runs at start, then every
 * `intervalMinutes`; every removal is logged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { thumbOf } from './images.ts';
import type { MediaService } from './service.ts';
import { LocalStore } from './store.ts';

/** Removed leftovers of processes that stopped, and a new temporary folder for this one. */
export function prepareUploadTemp(dataDir: string, log: FastifyBaseLogger): string {
  const root = path.join(dataDir, 'tmp', 'uploads');
  fs.mkdirSync(root, { recursive: true });
  const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '_');
  const removed: string[] = [];
  for (const name of fs.readdirSync(root)) {
    // <host>-<pid>-<random>: a folder of this host whose process is gone is a leftover; one of
    // another host sharing the folder is left alone for a day.
    const match = /^(.+)-(\d+)-[0-9a-f]+$/.exec(name);
    const full = path.join(root, name);
    const stale = match
      ? match[1] === host
        ? !isAlive(Number(match[2]))
        : Date.now() - fs.statSync(full).mtimeMs > 86_400_000
      : true;
    if (stale) {
      fs.rmSync(full, { recursive: true, force: true });
      removed.push(name);
    }
  }
  if (removed.length > 0) {
    log.info({ removed }, 'removed temporary upload folders left by processes that stopped');
  }
  const own = path.join(root, `${host}-${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(own, { mode: 0o700 });
  return own;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type SweepResult = { removed: string[]; partials: string[] };

/**
 * Removes stored files no row names and half-written files, when older than `olderThanMs` (a
 * younger one may belong to an upload whose row is being written right now).
 */
export async function sweepMedia(media: MediaService, olderThanMs: number): Promise<SweepResult> {
  const { store } = media;
  const cutoff = Date.now() - olderThanMs;
  const result: SweepResult = { removed: [], partials: [] };
  const candidates = new Set<string>();
  const all = new Set<string>();
  for await (const entry of store.list()) {
    if (entry.partial !== undefined) {
      if (entry.modifiedMs < cutoff && store instanceof LocalStore) {
        await store.removePartial(entry.partial);
        result.partials.push(entry.partial);
      }
      continue;
    }
    all.add(entry.key);
    if (entry.modifiedMs < cutoff) candidates.add(entry.key);
  }
  // A thumbnail goes with its image; one whose image is gone is an orphan on its own.
  const mains = [...candidates].filter((key) => !key.endsWith('.thumb.webp'));
  const orphanThumbs = [...candidates].filter(
    (key) => key.endsWith('.thumb.webp') && !all.has(key.replace(/\.thumb\.webp$/, '.webp')),
  );
  for (let i = 0; i < mains.length; i += 500) {
    const batch = mains.slice(i, i + 500);
    const used = await media.usedAmong(batch);
    for (const key of batch) {
      if (used.has(key)) continue;
      // Written again since it was listed: an upload of the same image is under way.
      if (((await store.modifiedMs(key)) ?? 0) >= cutoff) continue;
      await store.delete(key);
      result.removed.push(key);
      if (all.has(thumbOf(key))) {
        await store.delete(thumbOf(key));
        result.removed.push(thumbOf(key));
      }
    }
  }
  for (const key of orphanThumbs) {
    await store.delete(key);
    result.removed.push(key);
  }
  return result;
}

export type MediaSweeps = ReturnType<typeof startMediaSweeps>;

declare module 'fastify' {
  interface FastifyInstance {
    mediaSweeps: MediaSweeps;
  }
}

/**
 * Sweeps now and then every `intervalMinutes`, logging what it removed and counting it in
 * `removals`; stops with `stop()`.
 */
export function startMediaSweeps(
  media: MediaService,
  options: {
    olderThanMinutes: number;
    intervalMinutes: number;
    /** Housekeeping that runs first in each round (the trash's sweep). */
    before?: () => Promise<unknown>;
    log: FastifyBaseLogger;
    removals: { inc(count: number): void };
  },
) {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= (options.before?.() ?? Promise.resolve())
      .catch((err: unknown) => options.log.warn({ err }, 'trash sweep failed'))
      .then(() => sweepMedia(media, options.olderThanMinutes * 60_000))
      .then(({ removed, partials }) => {
        if (removed.length > 0 || partials.length > 0) {
          options.removals.inc(removed.length + partials.length);
          options.log.info({ removed, partials }, 'media sweep: removed files no row names');
        }
      })
      .catch((err: unknown) => options.log.warn({ err }, 'media sweep failed'))
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, options.intervalMinutes * 60_000);
  timer.unref();
  return {
    /** The sweep under way, if any (tests and shutdown wait for it). */
    settled: () => running ?? Promise.resolve(),
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
