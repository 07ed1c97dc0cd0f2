import { readFileSync } from 'node:fs';
import { startAgent } from './agent.ts';
import { webmailAgentSchema } from '@berth/contracts';

// `npm run agent` (or `npm run services -- start`, which runs it under supervisord): the agent of
// one web server, named by BERTH_SERVER, logging in with the role `npm run services` prepared for
// it (BERTH_AGENT_DATABASE_URL), or with the settings file `npm run services` wrote (its path the
// only argument; it holds the role's password, so it is 0600). docs/deploy.md: production.

const file = process.argv[2];
const fromFile: Record<string, string | number> = file ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string | number>) : {};
for (const [name, value] of Object.entries(fromFile)) process.env[name] ??= String(value);

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`${name} is not set\n`);
    process.exit(2);
  }
  return value;
};
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const agent = await startAgent({
  databaseUrl: need('BERTH_AGENT_DATABASE_URL'),
  serverName: process.env.BERTH_SERVER ?? 'web1',
  runDir: need('BERTH_WEB_RUN_DIR'),
  webRoot: need('BERTH_WEB_ROOT'),
  address: process.env.BERTH_WEB_ADDRESS ?? '127.0.0.1',
  httpPort: port('BERTH_HTTP_PORT', 8080),
  httpsPort: port('BERTH_HTTPS_PORT', 8443),
  workerUser: process.getuid?.() === 0 ? 'www-data' : null,
  userPrefix: process.env.BERTH_WEB_USER_PREFIX ?? 'berth',
  certificateKeys: process.env.BERTH_CERTIFICATE_KEYS,
  // Roundcube's host, folder, configuration and user, as `npm run services` prepared them (server/src/daemons/webmail.ts).
  ...(process.env.BERTH_WEBMAIL ? { webmail: webmailAgentSchema.parse(JSON.parse(process.env.BERTH_WEBMAIL)) } : {}),
  // Tests check every file, measure and read logs more often than the minute, minute and 5 s of production.
  ...(process.env.BERTH_AGENT_DISK_MS ? { diskEveryMs: Number(process.env.BERTH_AGENT_DISK_MS) } : {}),
  ...(process.env.BERTH_AGENT_SWEEP_MS ? { sweepEveryMs: Number(process.env.BERTH_AGENT_SWEEP_MS) } : {}),
  ...(process.env.BERTH_AGENT_LOGS_MS ? { logsEveryMs: Number(process.env.BERTH_AGENT_LOGS_MS) } : {}),
  // nginx's shared logs are rotated past this size (64 MB unless set; one old file is kept).
  ...(process.env.BERTH_AGENT_LOG_MAX_BYTES ? { logMaxBytes: Number(process.env.BERTH_AGENT_LOG_MAX_BYTES) } : {}),
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void agent.stop().then(() => process.exit(0));
  });
}
