import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MailSettings } from '../src/daemons/mail.ts';
import { freePort } from './faults/processes.ts';

/** A mail host of a test's own: every port a free one on loopback, its files in a new temporary directory. */
export async function mailHostSettings(databaseUrl: string, options: { relayPort?: number; prefix?: string } = {}): Promise<MailSettings> {
  return {
    databaseUrl,
    address: '127.0.0.1',
    smtpPort: await freePort(),
    imapPort: await freePort(),
    lmtpPort: await freePort(),
    quotaStatusPort: await freePort(),
    replyPort: await freePort(),
    policyPort: await freePort(),
    srsForwardPort: await freePort(),
    srsReversePort: await freePort(),
    ...(options.relayPort ? { relayHost: `[127.0.0.1]:${options.relayPort}` } : {}),
    runDir: mkdtempSync(path.join(tmpdir(), options.prefix ?? 'berth-mail-')),
  };
}
