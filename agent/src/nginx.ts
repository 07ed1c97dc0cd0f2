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

export const sitesDir = (layout: WebLayout) => path.join(layout.runDir, 'sites');
export const logsDir = (layout: WebLayout) => path.join(layout.runDir, 'logs');
export const pagesDir = (layout: WebLayout) => path.join(layout.runDir, 'pages');
export const siteFile = (layout: WebLayout, siteId: number) => path.join(sitesDir(layout), `${siteId}.conf`);
/** The site's own folder: what FTP will chroot into; the document root is a folder below it. */
export const siteHome = (layout: WebLayout, site: WebSite) => path.join(layout.webRoot, String(site.owner_id), site.name);
export const documentRoot = (layout: WebLayout, site: WebSite) => path.join(siteHome(layout, site), site.document_root);

/** Characters nginx would read as syntax: none may reach a directive, even from a validated row. */
const NGINX_SAFE = /^[A-Za-z0-9._\-/]+$/;

function safe(value: string, what: string): string {
  if (!NGINX_SAFE.test(value) || value.split('/').includes('..')) throw new Error(`${what} holds characters nginx would read as syntax`);
  return value;
}

/** The main configuration: the http block, a default server for unknown names, and every site's file. */
export function renderMain(layout: WebLayout, includes: string[] | 'all', siteCount: number): string {
  const run = safe(layout.runDir, 'the run directory');
  const listen = `${layout.address}:${layout.httpPort}`;
  const listenTls = `${layout.address}:${layout.httpsPort}`;
  const sites =
    includes === 'all' ? [`include ${sitesDir(layout)}/*.conf;`] : includes.map((file) => `include ${safe(file, 'a site file')};`);
  return [
    ...(layout.workerUser ? [`user ${safe(layout.workerUser, 'the worker user')};`] : []),
    'worker_processes 2;',
    `pid ${run}/nginx.pid;`,
    // One error log and one access log for every site (the agent splits them by site for the panel,
    // agent/src/logs.ts): two open files instead of two per site, which at 10,000 sites made every
    // check and reload open 20,000 files.
    `error_log ${run}/logs/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  sendfile on;',
    '  server_tokens off;',
    // Room for every name (a site and its www) with headroom, no more: nginx starts its search for a
    // hash size near the maximum, and a needlessly large one made each check and reload slower.
    `  server_names_hash_max_size ${Math.max(1024, 2 ** Math.ceil(Math.log2(Math.max(1, siteCount) * 4)))};`,
    '  server_names_hash_bucket_size 128;',
    `  client_body_temp_path ${run}/tmp/body;`,
    `  proxy_temp_path ${run}/tmp/proxy;`,
    `  fastcgi_temp_path ${run}/tmp/fastcgi;`,
    `  uwsgi_temp_path ${run}/tmp/uwsgi;`,
    `  scgi_temp_path ${run}/tmp/scgi;`,
    '  map $berth_site $berth_site_logged { default $berth_site; "" -; }',
    `  log_format berth '$berth_site_logged $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"';`,
    `  access_log ${run}/logs/access.log berth buffer=64k flush=1s;`,
    // PHP's parameters once for every site (a location that sets none inherits them): 17 lines
    // fewer for nginx to parse and keep per site.
    '  include /etc/nginx/fastcgi_params;',
    '  fastcgi_param SCRIPT_FILENAME $realpath_root$fastcgi_script_name;',
    '  fastcgi_param PATH_INFO $fastcgi_path_info;',
    '  index index.html index.htm;',
    // A site without PHP never hands out a PHP file's source.
    '  map $uri $berth_php_file { default 0; ~\\.php$ 1; }',
    `  ssl_certificate ${run}/tls/default.crt;`,
    `  ssl_certificate_key ${run}/tls/default.key;`,
    '  ssl_protocols TLSv1.2 TLSv1.3;',
    // A name Berth does not serve gets nothing of any site.
    '  server {',
    `    listen ${listen} default_server;`,
    `    listen ${listenTls} ssl default_server;`,
    '    server_name _;',
    '    set $berth_site "";',
    '    return 404;',
    '  }',
    ...sites.map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
}

/**
 * One site's server block. Every value is checked here again (a host name, a path from the site's
 * own folder): nothing in the row can start a directive or point outside the customer's home.
 */
export function renderSite(layout: WebLayout, site: WebSite, phpSocket: string | null): string {
  if (!WEB_HOST_NAME.test(site.name)) throw new Error('the site name is not a host name');
  const root = safe(documentRoot(layout, site), 'the document root');
  if (!root.startsWith(`${siteHome(layout, site)}/`)) throw new Error('the document root is outside the site');
  const names = [site.name, `www.${site.name}`].filter((name) => WEB_HOST_NAME.test(name));
  const head = [
    `# Berth site ${site.site_id} (${site.name}), revision ${site.revision}: written by the agent; edits are replaced.`,
    'server {',
    // HTTPS per site once it has a certificate (issue 32); until then the default server answers there.
    `  listen ${layout.address}:${layout.httpPort};`,
    `  server_name ${names.join(' ')};`,
    // Its lines in the shared access log carry its id (agent/src/logs.ts splits them).
    `  set $berth_site ${site.site_id};`,
  ];
  const body = site.suspended
    ? [
        `  root ${safe(pagesDir(layout), 'the pages directory')}/${site.site_id};`,
        '  error_page 503 /suspended.html;',
        '  location = /suspended.html { internal; }',
        '  location / { return 503; }',
      ]
    : [
        `  root ${root};`,
        ...(phpSocket ? ['  index index.php index.html index.htm;'] : []),
        '  location / { try_files $uri $uri/ =404; }',
        ...(phpSocket ? [] : ['  if ($berth_php_file) { return 403; }']),
        // Only a file that exists runs (never /upload.jpg/x.php), in the customer's own pool.
        ...(phpSocket
          ? [
              '  location ~ [^/]\\.php(/|$) {',
              '    fastcgi_split_path_info ^(.+?\\.php)(/.*)$;',
              '    try_files $fastcgi_script_name =404;',
              `    fastcgi_pass unix:${safe(phpSocket, 'the PHP socket')};`,
              '  }',
            ]
          : []),
      ];
  return [...head, ...body, '}', ''].join('\n');
}
