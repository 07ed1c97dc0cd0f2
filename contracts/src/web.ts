import { z } from 'zod';
import { domainSettingsSchema, PHP_VERSIONS } from './hosting.ts';

/*
 * Websites: what a web server's agent (agent/) reads of each site from the schema `web`
 * (server/src/db/migrations/0030_web_serving.ts) and what it reports back. The agent parses every
 * row with these schemas before anything reaches a configuration file: the panel validated the
 * values already, and the agent does not trust that it did.
 */

/** A host name as nginx's server_name takes it: lower-case ASCII labels (IDNs arrive in punycode). */
export const WEB_HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export const webSiteSchema = z.object({
  site_id: z.coerce.number().int().positive(),
  name: z.string().regex(WEB_HOST_NAME),
  server_id: z.coerce.number().int().positive(),
  revision: z.coerce.string().regex(/^\d{1,19}$/),
  owner_id: z.coerce.number().int().positive(),
  tenant_id: z.coerce.number().int().positive(),
  tenant_name: z.string().max(200),
  language: z.string().regex(/^[a-z]{2}$/),
  document_root: domainSettingsSchema.shape.document_root,
  php_version: z.enum(PHP_VERSIONS),
  ssl_redirect: z.boolean(),
  hsts: z.boolean(),
  suspended: z.boolean(),
  aliases: domainSettingsSchema.shape.aliases,
  www_redirect: domainSettingsSchema.shape.www_redirect,
  /** From the owner's plans running now; null: the server's default, or no disk limit. */
  php_workers: z.coerce.number().int().min(1).max(100).nullable(),
  php_memory_mb: z.coerce.number().int().min(32).max(2048).nullable(),
  disk_quota_mb: z.coerce.number().int().min(0).nullable(),
  /** The serial of the certificate in use for the name and its wildcard (modules/certificates); null: none yet. */
  certificate: z
    .string()
    .regex(/^[0-9A-Fa-f]{1,64}$/)
    .nullable()
    .default(null),
});
export type WebSite = z.infer<typeof webSiteSchema>;

/**
 * What `npm run services` tells a web agent of webmail (agent.json `BERTH_WEBMAIL`,
 * server/src/daemons/webmail.ts): the panel host's webmail name, Roundcube's public folder and
 * configuration folder (absolute, plain paths: they go into nginx's and PHP-FPM's files), the
 * system user its PHP runs as (null without root).
 */
export const webmailAgentSchema = z.object({
  host: z.string().regex(WEB_HOST_NAME),
  root: z.string().regex(/^\/[A-Za-z0-9._\-/]+$/),
  configDir: z.string().regex(/^\/[A-Za-z0-9._\-/]+$/),
  user: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,31}$/)
    .nullable(),
});
export type WebmailAgent = z.infer<typeof webmailAgentSchema>;
