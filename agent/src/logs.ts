import { closeSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

const KEEP = 100;
/** How long after a rotation the old file is still read: nginx's workers flush their buffers to it when they reopen. */
const DRAIN_MS = 3_000;

interface Draining {
  file: string;
  offset: number;
  until: number;
}
/** On start, how much of each log is read back (the lines of before the agent's restart). */
const BACKLOG_BYTES = 1024 * 1024;
const SITE_ID = /^(\d+) /;
/** nginx names the request's host at the end of an error line: `…, request: "GET / HTTP/1.1", host: "example.com:8080"`. */
const HOST = /, host: "([^":]+)(?::\d+)?"$/;

/**
 * The sites' lines of nginx's two shared logs (agent/src/nginx.ts): the access log's lines carry
 * the site's id first, the error log's the host the request asked for. Read on from where the last read
 * stopped (from the start again when the file was rotated), kept per site, the last 100 of each.
 */
export class SiteLogs {
  private readonly files: { access: string; error: string };
  private readonly offsets = { access: -1, error: -1 };
  private readonly rest = { access: '', error: '' };
  /** The unfinished last line of a rotated log, while it is drained. */
  private readonly carried = { access: '', error: '' };
  private readonly lines = new Map<number, { access: string[]; error: string[] }>();
  /** A log just rotated: what nginx still wrote to it before it reopened is read once more. */
  private readonly draining: { access?: Draining; error?: Draining } = {};
  private readonly dirty = new Set<number>();

  constructor(logsDir: string) {
    this.files = { access: path.join(logsDir, 'access.log'), error: path.join(logsDir, 'error.log') };
  }

  /** Reads what nginx wrote since the last call; `siteOf` finds a site by a name it answers. */
  read(siteOf: (name: string) => number | undefined): void {
    for (const kind of ['access', 'error'] as const) {
      for (const line of this.newLines(kind)) {
        if (kind === 'access') {
          const match = SITE_ID.exec(line);
          if (match) this.keep(Number(match[1]), kind, line.slice(match[0].length));
        } else {
          const name = HOST.exec(line)?.[1]?.toLowerCase();
          const siteId = name === undefined ? undefined : siteOf(name);
          if (siteId !== undefined) this.keep(siteId, kind, line);
        }
      }
    }
  }

  /**
   * Rotates a shared log that grew past `maxBytes`: its lines read, the file renamed to `.1` (the
   * one before is replaced), nginx told to reopen its logs (`reopen`, SIGUSR1), and what nginx wrote
   * to the old file meanwhile read on the next call. Answers the logs rotated.
   */
  async rotate(maxBytes: number, reopen: () => Promise<void>, siteOf: (name: string) => number | undefined): Promise<string[]> {
    const large = (['access', 'error'] as const).filter((kind) => {
      try {
        return statSync(this.files[kind]).size > maxBytes && !this.draining[kind];
      } catch {
        return false;
      }
    });
    if (large.length === 0) return [];
    this.read(siteOf);
    for (const kind of large) {
      const old = `${this.files[kind]}.1`;
      renameSync(this.files[kind], old);
      this.draining[kind] = { file: old, offset: this.offsets[kind], until: Date.now() + DRAIN_MS };
      this.carried[kind] = this.rest[kind];
      this.rest[kind] = '';
      this.offsets[kind] = 0;
    }
    await reopen();
    return large.map((kind) => this.files[kind]);
  }

  /** The sites with new lines since the last call, each with its last lines, newest first. */
  changed(): { siteId: number; access: string[]; error: string[] }[] {
    const out = [...this.dirty].map((siteId) => {
      const kept = this.lines.get(siteId)!;
      return { siteId, access: [...kept.access].reverse(), error: [...kept.error].reverse() };
    });
    this.dirty.clear();
    return out;
  }

  /** Forgets a site that is gone. */
  drop(siteId: number): void {
    this.lines.delete(siteId);
    this.dirty.delete(siteId);
  }

  private keep(siteId: number, kind: 'access' | 'error', line: string): void {
    let kept = this.lines.get(siteId);
    if (!kept) {
      kept = { access: [], error: [] };
      this.lines.set(siteId, kept);
    }
    kept[kind].push(line.slice(0, 2000));
    if (kept[kind].length > KEEP) kept[kind].splice(0, kept[kind].length - KEEP);
    this.dirty.add(siteId);
  }

  private newLines(kind: 'access' | 'error'): string[] {
    const drained = this.drain(kind);
    return [...drained, ...this.linesOf(kind)];
  }

  /** The last lines nginx wrote to a log before it reopened it after a rotation (read for a few seconds). */
  private drain(kind: 'access' | 'error'): string[] {
    const draining = this.draining[kind];
    if (!draining) return [];
    if (Date.now() > draining.until) delete this.draining[kind];
    let size: number;
    try {
      size = statSync(draining.file).size;
    } catch {
      return [];
    }
    if (size <= draining.offset) return [];
    const fd = openSync(draining.file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(size - draining.offset, 8 * 1024 * 1024));
      const read = readSync(fd, buffer, 0, buffer.length, draining.offset);
      draining.offset += read;
      const parts = buffer.subarray(0, read).toString('utf8').split('\n');
      // A line nginx had begun before the rotation was read in part already.
      parts[0] = this.carried[kind] + parts[0];
      this.carried[kind] = parts.pop() ?? '';
      return parts.filter((line) => line.length > 0);
    } finally {
      closeSync(fd);
    }
  }

  private linesOf(kind: 'access' | 'error'): string[] {
    const file = this.files[kind];
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return [];
    }
    const first = this.offsets[kind] < 0;
    let from = first ? Math.max(0, size - BACKLOG_BYTES) : this.offsets[kind];
    if (size < from) {
      // Rotated by someone else (logrotate): the new file from its start.
      from = 0;
      this.rest[kind] = '';
    }
    this.offsets[kind] = from;
    if (size === from) return [];
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(size - from, 8 * 1024 * 1024));
      const read = readSync(fd, buffer, 0, buffer.length, from);
      this.offsets[kind] = from + read;
      const parts = (this.rest[kind] + buffer.subarray(0, read).toString('utf8')).split('\n');
      // The last part is a line nginx has not finished yet; a first read from inside the file
      // begins inside a line.
      this.rest[kind] = parts.pop() ?? '';
      if (first && from > 0) parts.shift();
      return parts.filter((line) => line.length > 0);
    } finally {
      closeSync(fd);
    }
  }
}
