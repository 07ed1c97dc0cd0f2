import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

const KEEP = 100;
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
  private readonly lines = new Map<number, { access: string[]; error: string[] }>();
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
      // Rotated: the new file from its start.
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
