import path from 'node:path';
import { WEB_HOST_NAME, type WebSite } from '@berth/contracts';

/** Where one web server keeps what it serves and how nginx listens (agent/src/main.ts reads them from the environment). */
export interface WebLayout {
  /** nginx's configuration, sites, logs and temporary files. */
  runDir: string;
  /** The customers' homes: `<webRoot>/<owner id>/<site>/<document root>`. */
  webRoot: string;
  address: string;
  httpPort: number;
  httpsPort: number;
  /** Workers run as this user when nginx starts as root (CI, production); null otherwise. */
  workerUser: string | null;
}

export const logsDir = (layout: WebLayout) => path.join(layout.runDir, 'logs');
/** The sites' certificate files and the default one, readable by nginx's workers (agent/src/certificates.ts). */
export const certificatesDir = (layout: WebLayout) => path.join(layout.runDir, 'certificates');
/** Where the agent answers the CA's HTTP-01 questions (agent/src/acme-challenges.ts). */
export const acmeSocket = (layout: WebLayout) => path.join(layout.runDir, 'acme.sock');
export const pagesDir = (layout: WebLayout) => path.join(layout.runDir, 'pages');
/** Every site of this server as nginx maps (renderSites); the agent's last good entries beside it. */
export const sitesFile = (layout: WebLayout) => path.join(layout.runDir, 'sites.conf');
export const sitesStateFile = (layout: WebLayout) => path.join(layout.runDir, 'sites.json');
/** The operator's own server blocks (not written by the agent): included after the sites. */
export const extraDir = (layout: WebLayout) => path.join(layout.runDir, 'conf.d');
/** The site's own folder: what FTP will chroot into; the document root is a folder below it. */
export const siteHome = (layout: WebLayout, site: WebSite) => path.join(layout.webRoot, String(site.owner_id), site.name);
export const documentRoot = (layout: WebLayout, site: WebSite) => path.join(siteHome(layout, site), site.document_root);

/** Mozilla's "intermediate" TLS 1.2 ciphers (ssl-config.mozilla.org, version 5.7); TLS 1.3's are OpenSSL's defaults. */
const INTERMEDIATE_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'DHE-RSA-AES128-GCM-SHA256',
  'DHE-RSA-AES256-GCM-SHA384',
  'DHE-RSA-CHACHA20-POLY1305',
].join(':');

/** A certificate's serial as the database keeps it (hexadecimal). */
const SERIAL = /^[0-9A-Fa-f]{1,128}$/;

/** Characters nginx would read as syntax: none may reach a directive, even from a validated row. */
const NGINX_SAFE = /^[A-Za-z0-9._\-/]+$/;

function safe(value: string, what: string): string {
  if (!NGINX_SAFE.test(value) || value.split('/').includes('..')) throw new Error(`${what} holds characters nginx would read as syntax`);
  return value;
}

/**
 * What nginx needs to know of one site: the names it answers, its folder, and how it is served
 * (`static`, `php` through a customer's pool, or `suspended`). One line per map (renderSites), so a
 * change of one site at 10,000 is a few lines of one file that nginx reads in milliseconds, where a
 * server block per site took it seconds and gigabytes (bench/README.md).
 */
export interface SiteEntries {
  siteId: number;
  revision: string;
  /** Its name first, then www and its aliases. */
  hosts: string[];
  /** Names sent on to another of its names (`[from, to]`): www to the bare domain or back. */
  redirects: [string, string][];
  root: string;
  kind: 'static' | 'php' | 'suspended';
  /** The pool's socket path when `kind` is php. */
  php: string | null;
  /** Its certificate's files without the extension (`.crt`, `.key`; agent/src/certificates.ts), or null: the default one. */
  tls: string | null;
  /** The serial those files hold: a new one changes the sites file, and the reload makes the workers read the files again. */
  tlsSerial?: string | null;
  /** HTTP answered with a redirect to HTTPS, and HTTPS with HSTS (the site's settings; only with its own certificate). */
  toHttps: boolean;
  hsts: boolean;
}

/** Every value checked again here (a host name, a path inside the site's own folder): nothing in a row can start a directive. */
export function siteEntries(
  layout: WebLayout,
  site: WebSite,
  phpSocket: string | null,
  tls: { base: string; serial: string } | null = null,
): SiteEntries {
  if (!WEB_HOST_NAME.test(site.name)) throw new Error('the site name is not a host name');
  const root = safe(documentRoot(layout, site), 'the document root');
  if (!root.startsWith(`${siteHome(layout, site)}/`)) throw new Error('the document root is outside the site');
  const www = `www.${site.name}`;
  const redirects: [string, string][] =
    site.www_redirect === 'to_apex' ? [[www, site.name]] : site.www_redirect === 'to_www' ? [[site.name, www]] : [];
  return checkedEntries({
    siteId: site.site_id,
    revision: site.revision,
    hosts: [site.name, www, ...site.aliases.map((alias) => `${alias}.${site.name}`)].filter((name) => WEB_HOST_NAME.test(name)),
    redirects: redirects.filter(([from, to]) => WEB_HOST_NAME.test(from) && WEB_HOST_NAME.test(to)),
    root: site.suspended ? path.join(pagesDir(layout), String(site.site_id)) : root,
    kind: site.suspended ? 'suspended' : phpSocket ? 'php' : 'static',
    php: site.suspended ? null : phpSocket,
    tls: tls?.base ?? null,
    tlsSerial: tls?.serial ?? null,
    toHttps: tls !== null && site.ssl_redirect,
    hsts: tls !== null && site.hsts,
  });
}

/** Entries read back from the agent's state file are held to the same rules as new ones. */
export function checkedEntries(entries: SiteEntries): SiteEntries {
  if (!Number.isSafeInteger(entries.siteId) || entries.siteId <= 0) throw new Error('a site id is not a number');
  if (!/^\d{1,19}$/.test(entries.revision)) throw new Error('a revision is not a number');
  for (const host of [...entries.hosts, ...entries.redirects.flat()])
    if (!WEB_HOST_NAME.test(host)) throw new Error('a site name is not a host name');
  for (const [from, to] of entries.redirects)
    if (!entries.hosts.includes(from) || !entries.hosts.includes(to)) throw new Error('a redirect leads off the site');
  safe(entries.root, 'the document root');
  if (!['static', 'php', 'suspended'].includes(entries.kind)) throw new Error('a site kind is unknown');
  if (entries.kind === 'php') safe(entries.php ?? '', 'the PHP socket');
  // Entries kept by an agent from before certificates have none of the three.
  const tls = entries.tls ?? null;
  if (tls !== null) safe(tls, 'the certificate path');
  const tlsSerial = tls === null ? null : (entries.tlsSerial ?? null);
  if (tlsSerial !== null && !SERIAL.test(tlsSerial)) throw new Error('a certificate serial is not hexadecimal');
  return { ...entries, tls, tlsSerial, toHttps: tls !== null && entries.toHttps === true, hsts: tls !== null && entries.hsts === true };
}

/**
 * Which site answers each name: every site its own name first, then the others' www and aliases in
 * the order of the sites' ids, so an alias can never take a name another site has (or had first).
 * Answers the names each site keeps.
 */
export function claimHosts(sites: SiteEntries[]): Map<number, string[]> {
  const sorted = [...sites].sort((a, b) => a.siteId - b.siteId);
  const taken = new Set(sorted.map((site) => site.hosts[0]));
  const kept = new Map<number, string[]>();
  for (const site of sorted) {
    const own = site.hosts.slice(1).filter((host) => !taken.has(host));
    for (const host of own) taken.add(host);
    kept.set(site.siteId, site.hosts[0] === undefined ? own : [site.hosts[0], ...own]);
  }
  return kept;
}

/**
 * Roundcube as nginx serves it (agent/src/webmail.ts): its names (the panel host's webmail name and
 * `webmail.<domain>` of the mail domains of this server), its public folder and its PHP pool.
 */
export interface WebmailEntries {
  hosts: string[];
  root: string;
  php: string;
}

/** The key of webmail in the maps where sites have their ids. */
const WEBMAIL = 'webmail';

/**
 * The sites' maps: host → site id and redirect, and site id → folder, kind, PHP pool. Webmail
 * answers its names that no site has (a customer's site named webmail.<domain> stays theirs), over
 * HTTPS only: its login form takes a password.
 */
export function renderSites(sites: SiteEntries[], webmail: WebmailEntries | null = null): string {
  const sorted = [...sites].sort((a, b) => a.siteId - b.siteId);
  const hosts = claimHosts(sorted);
  const taken = new Set([...hosts.values()].flat());
  const mail = webmail
    ? {
        hosts: [...new Set(webmail.hosts)].filter((host) => WEB_HOST_NAME.test(host) && !taken.has(host)),
        root: safe(webmail.root, 'the webmail folder'),
        php: safe(webmail.php, 'the webmail PHP socket'),
      }
    : null;
  const map = (from: string, to: string, fallback: string, lines: string[]) => [
    `map ${from} ${to} {`,
    `  default ${fallback};`,
    ...lines.map((line) => `  ${line}`),
    '}',
  ];
  return [
    '# Berth: the sites of this web server, written by the agent from the database; edits are replaced.',
    ...map('$host', '$berth_site', '""', [
      ...sorted.flatMap((site) => hosts.get(site.siteId)!.map((host) => `${host} ${site.siteId};`)),
      ...(mail?.hosts.map((host) => `${host} ${WEBMAIL};`) ?? []),
    ]),
    ...map(
      '$host',
      '$berth_redirect',
      '""',
      sorted.flatMap((site) =>
        site.redirects
          .filter(([from, to]) => [from, to].every((host) => hosts.get(site.siteId)!.includes(host)))
          .map(([from, to]) => `${from} ${to};`),
      ),
    ),
    ...map('$berth_site', '$berth_root', '/nonexistent', [
      ...sorted.map((site) => `${site.siteId} ${site.root};`),
      ...(mail ? [`${WEBMAIL} ${mail.root};`] : []),
    ]),
    ...map('$berth_site', '$berth_kind', '""', [
      ...sorted.map((site) => `${site.siteId} ${site.kind};`),
      ...(mail ? [`${WEBMAIL} php;`] : []),
    ]),
    ...map('$berth_site', '$berth_php', '""', [
      ...sorted.flatMap((site) => (site.kind === 'php' ? [`${site.siteId} unix:${site.php};`] : [])),
      ...(mail ? [`${WEBMAIL} unix:${mail.php};`] : []),
    ]),
    // Asked by the HTTP server block only, and HSTS by the HTTPS one (renderMain).
    ...map('$berth_site', '$berth_to_https', '""', [
      ...sorted.flatMap((site) => (site.toHttps ? [`${site.siteId} 1;`] : [])),
      ...(mail ? [`${WEBMAIL} 1;`] : []),
    ]),
    ...map(
      '$berth_site',
      '$berth_hsts',
      '""',
      sorted.flatMap((site) => (site.hsts ? [`${site.siteId} "max-age=${HSTS_MAX_AGE}";`] : [])),
    ),
    // Each site's certificate files by its names, for the handshake (renderMain): a name is served
    // by the one it equals, else by the one a label above it, as a certificate covers its names and
    // their wildcard. Names and paths passed WEB_HOST_NAME and NGINX_SAFE: nothing can end a Lua string.
    'init_by_lua_block {',
    '  berth_tls = {',
    ...sorted.flatMap((site) =>
      site.tls ? certificateNames(site).map((host) => `    ["${host}"] = "${site.tls}", -- serial ${site.tlsSerial ?? 'unknown'}`) : [],
    ),
    '  }',
    '}',
    `# ${sorted.length} sites${mail ? `, webmail at ${mail.hosts.length} names` : ''}`,
    '',
  ].join('\n');
}

/**
 * The names a site's certificate is looked up by (its name, and the hosts more than a label below
 * it: aliases such as `eu.shop`); a name a label below one of them finds it too (CERTIFICATE_BY_NAME,
 * agent/src/ftp-cert.ts). A deeper name gets the server's default: the panel's own certificate.
 */
export function certificateNames(site: Pick<SiteEntries, 'hosts'>): string[] {
  const own = site.hosts[0];
  if (!own) return [];
  return [own, ...site.hosts.filter((host) => host.endsWith(`.${own}`) && host.slice(0, -own.length - 1).includes('.'))];
}

/** Debian's libnginx-mod-http-lua and the module it needs (ngx_devel_kit). */
export const LUA_MODULES = ['/usr/lib/nginx/modules/ndk_http_module.so', '/usr/lib/nginx/modules/ngx_http_lua_module.so'];
/** Where Debian's lua-resty-core and lua-resty-lrucache are. */
const LUA_PATH = '/usr/share/lua/5.1';
/** What the certificate step requires of them (ngx.ssl and ngx.ocsp come with lua-resty-core). */
export const LUA_LIBRARIES = [`${LUA_PATH}/resty/core.lua`, `${LUA_PATH}/resty/lrucache.lua`, `${LUA_PATH}/ngx/ssl.lua`];
/** Parsed certificates each worker keeps (the least recently used go first). */
const PARSED_CERTIFICATES = 4096;
/** A stapled OCSP answer is read from its file again after this long: the agent refreshes it every few hours. */
const OCSP_RECHECK_SECONDS = 300;

/**
 * Which certificate a handshake gets, in each worker: the site's whose name the asked name (SNI)
 * equals, else the one a label above it (`berth_tls`, renderSites), its files parsed once and kept. nginx
 * 1.22 parses a certificate named by a variable at every handshake, which cost 0.82 of the
 * handshakes a static one allows (bench item 8); nginx cannot name thousands statically either
 * (a server block each: seconds and gigabytes). A renewed certificate comes with a new serial in
 * the sites file, so the reload's new workers read the files again. Nothing of the request reaches
 * a file name: the name only selects a path the agent wrote. Without a match, or when the files
 * cannot be read, the default certificate of the server block stays.
 */
const CERTIFICATE_BY_NAME = [
  'local ssl = require "ngx.ssl"',
  'local name = ssl.server_name()',
  'if not name then return end',
  'name = string.lower(name)',
  'local base = berth_tls[name]',
  'if not base then',
  '  local dot = string.find(name, ".", 1, true)',
  '  if not dot then return end',
  '  base = berth_tls[string.sub(name, dot + 1)]',
  '  if not base then return end',
  'end',
  'local function read(file)',
  '  local f = io.open(file, "rb")',
  '  if not f then return nil end',
  '  local text = f:read("*a")',
  '  f:close()',
  '  return text',
  'end',
  'local parsed = berth_tls_cache:get(base)',
  'if not parsed then',
  '  local crt, key = read(base .. ".crt"), read(base .. ".key")',
  '  if not crt or not key then',
  '    ngx.log(ngx.ERR, "berth: the certificate files of ", base, " cannot be read")',
  '    return',
  '  end',
  '  local chain, chain_error = ssl.parse_pem_cert(crt)',
  '  local private_key, key_error = ssl.parse_pem_priv_key(key)',
  '  if not chain or not private_key then',
  '    ngx.log(ngx.ERR, "berth: the certificate of ", base, ": ", chain_error or key_error)',
  '    return',
  '  end',
  // The chain in DER when its leaf names an OCSP responder: the agent fetches its answers.
  '  local der = ssl.cert_pem_to_der(crt)',
  '  if der and not require("ngx.ocsp").get_ocsp_responder_from_der_chain(der) then der = nil end',
  '  parsed = { chain, private_key, der }',
  '  berth_tls_cache:set(base, parsed)',
  'end',
  'local ok, problem = ssl.clear_certs()',
  'if ok then ok, problem = ssl.set_cert(parsed[1]) end',
  'if ok then ok, problem = ssl.set_priv_key(parsed[2]) end',
  'if not ok then',
  '  ngx.log(ngx.ERR, "berth: the certificate of ", base, " was not set: ", problem)',
  '  return ngx.exit(ngx.ERROR)',
  'end',
  // OCSP stapling: the agent's answer (agent/src/certificates.ts), checked against the chain before
  // it is stapled, read again after OCSP_RECHECK_SECONDS (an answer not there yet after 10 s).
  'if parsed[3] then',
  '  local ocsp = require "ngx.ocsp"',
  '  local answer = berth_ocsp_cache:get(base)',
  '  if answer == nil then',
  '    answer = read(base .. ".ocsp") or false',
  '    if answer then',
  '      local valid, why = ocsp.validate_ocsp_response(answer, parsed[3])',
  '      if not valid then',
  '        ngx.log(ngx.WARN, "berth: the OCSP answer of ", base, " is not stapled: ", why)',
  '        answer = false',
  '      end',
  '    end',
  `    berth_ocsp_cache:set(base, answer, answer and ${OCSP_RECHECK_SECONDS} or 10)`,
  '  end',
  '  if answer then',
  '    local stapled, why = ocsp.set_ocsp_status_resp(answer)',
  '    if not stapled then ngx.log(ngx.WARN, "berth: the OCSP answer of ", base, " was not stapled: ", why) end',
  '  end',
  'end',
];

/** A year, as browsers' preload lists ask; the site's owner switches HSTS on knowingly (its settings). */
export const HSTS_MAX_AGE = 31_536_000;

/**
 * The main configuration: the http block, the sites' maps (`sitesConf`), and one server block that
 * serves every site by them; a name Berth does not serve gets 404 and nothing of any site.
 */
export function renderMain(layout: WebLayout, sitesConf: string, hostCount: number): string {
  const run = safe(layout.runDir, 'the run directory');
  const listen = `${layout.address}:${layout.httpPort}`;
  const listenTls = `${layout.address}:${layout.httpsPort}`;
  const refuse = ['      if ($berth_kind = "") { return 404; }', '      if ($berth_kind = suspended) { return 503; }'];
  const httpsPort = layout.httpsPort === 443 ? '' : `:${layout.httpsPort}`;
  /**
   * What both server blocks serve: every site by the maps. `redirects` are asked first in each
   * location a request can be served from, so a CA's HTTP-01 question (its own `^~` location)
   * skips them without a regular expression over every request's URI.
   */
  const siteBody = (redirects: string[]) => {
    const first = [...redirects, ...refuse];
    return [
      '    root $berth_root;',
      '    index $berth_index index.html index.htm;',
      '    error_page 503 /.berth-suspended.html;',
      '    location = /.berth-suspended.html {',
      '      internal;',
      `      root ${safe(pagesDir(layout), 'the pages directory')}/$berth_site;`,
      '      try_files /suspended.html =503;',
      '    }',
      '    location / {',
      ...first,
      // The static module serves the file, a folder's index, or 404 (no try_files: one stat fewer a request).
      '    }',
      // A site without PHP never hands out a PHP file's source. The customer's pool runs only a
      // .php file that exists (security.limit_extensions, cgi.fix_pathinfo off: never
      // /upload.jpg/x.php; agent/src/php.ts), so nginx need not look for the file first.
      '    location ~ [^/]\\.php(/|$) {',
      ...first,
      '      if ($berth_kind != php) { return 403; }',
      '      fastcgi_split_path_info ^(.+?\\.php)(/.*)$;',
      '      include /etc/nginx/fastcgi_params;',
      '      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;',
      '      fastcgi_param PATH_INFO $fastcgi_path_info;',
      '      fastcgi_pass $berth_php;',
      '    }',
    ];
  };
  // www to the bare domain or back, as the site's settings say.
  const wwwRedirect = '      if ($berth_redirect) { return 301 $scheme://$berth_redirect$request_uri; }';
  // To HTTPS on the same name first, then www (HSTS preload lists ask for that order).
  const httpsRedirect = `      if ($berth_to_https) { return 301 https://$host${httpsPort}$request_uri; }`;
  const defaultTls = `${safe(certificatesDir(layout), 'the certificates directory')}/default`;
  return [
    ...LUA_MODULES.map((module) => `load_module ${module};`),
    ...(layout.workerUser ? [`user ${safe(layout.workerUser, 'the worker user')};`] : []),
    'worker_processes 2;',
    // The PHP location is a regular expression tried on every request but an exact or `^~` match
    // (the CA's HTTP-01 questions), and PHP's path split one more on each PHP request: compiled to
    // machine code (Debian's nginx is built --with-pcre-jit; bench/README.md, item 8).
    'pcre_jit on;',
    `pid ${run}/nginx.pid;`,
    // One error log and one access log for every site (the agent splits them by site for the panel,
    // agent/src/logs.ts).
    `error_log ${run}/logs/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  sendfile on;',
    // Webmail's attachments (25 MB, agent/src/webmail.ts); a site's PHP keeps its own post_max_size.
    '  client_max_body_size 32m;',
    '  server_tokens off;',
    // Room for every name with headroom; a bucket holds the longest host name (253).
    `  map_hash_max_size ${Math.max(2048, 2 ** Math.ceil(Math.log2(Math.max(1, hostCount) * 2)))};`,
    '  map_hash_bucket_size 256;',
    `  client_body_temp_path ${run}/tmp/body;`,
    `  proxy_temp_path ${run}/tmp/proxy;`,
    `  fastcgi_temp_path ${run}/tmp/fastcgi;`,
    `  uwsgi_temp_path ${run}/tmp/uwsgi;`,
    `  scgi_temp_path ${run}/tmp/scgi;`,
    `  include ${safe(sitesConf, 'the sites file')};`,
    '  map $berth_site $berth_site_logged { default $berth_site; "" -; }',
    `  log_format berth '$berth_site_logged $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"';`,
    `  access_log ${run}/logs/access.log berth buffer=64k flush=1s;`,
    // A PHP site's folder index is index.php first, as on every shared host.
    '  map $berth_kind $berth_index { default index.html; php index.php; }',
    // Mozilla's "intermediate" profile: TLS 1.2 and 1.3, forward-secret AEAD ciphers only.
    '  ssl_protocols TLSv1.2 TLSv1.3;',
    `  ssl_ciphers ${INTERMEDIATE_CIPHERS};`,
    '  ssl_prefer_server_ciphers off;',
    '  ssl_session_cache shared:berth_tls:10m;',
    '  ssl_session_timeout 1d;',
    '  ssl_session_tickets off;',
    // Debian's lua-resty-core and lua-resty-lrucache (CERTIFICATE_BY_NAME).
    `  lua_package_path "${LUA_PATH}/?.lua;;";`,
    '  init_worker_by_lua_block {',
    `    berth_tls_cache = require("resty.lrucache").new(${PARSED_CERTIFICATES})`,
    `    berth_ocsp_cache = require("resty.lrucache").new(${PARSED_CERTIFICATES})`,
    '  }',
    // HTTP and HTTPS in a server block each, alike but for what only one of them does: each
    // request asks only its own scheme's questions.
    '  server {',
    `    listen ${listen} default_server;`,
    '    server_name _;',
    // The agent answers the CA's HTTP-01 questions from the database (migration 0038), over HTTP:
    // never sent to HTTPS or to another name first.
    '    location ^~ /.well-known/acme-challenge/ {',
    `      proxy_pass http://unix:${safe(acmeSocket(layout), 'the ACME socket')}:;`,
    '      proxy_set_header Host $host;',
    '    }',
    ...siteBody([httpsRedirect, wwwRedirect]),
    '  }',
    '  server {',
    `    listen ${listenTls} ssl default_server;`,
    '    server_name _;',
    // Names without their own certificate get the default one; the others theirs (CERTIFICATE_BY_NAME).
    `    ssl_certificate ${defaultTls}.crt;`,
    `    ssl_certificate_key ${defaultTls}.key;`,
    '    ssl_certificate_by_lua_block {',
    ...CERTIFICATE_BY_NAME.map((line) => `      ${line}`),
    '    }',
    '    add_header Strict-Transport-Security $berth_hsts always;',
    ...siteBody([wwwRedirect]),
    '  }',
    `  include ${safe(extraDir(layout), 'the extra directory')}/*.conf;`,
    '}',
    '',
  ].join('\n');
}
