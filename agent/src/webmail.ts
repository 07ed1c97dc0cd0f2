import path from 'node:path';
import type { WebmailAgent } from '@berth/contracts';
import { logsDir, type WebLayout } from './nginx.ts';
import { phpDir, type PhpVersion } from './php.ts';

/** Roundcube's pool's socket, in the folder of the PHP version it runs on. */
export const webmailSocket = (layout: WebLayout, version: PhpVersion) => path.join(phpDir(layout, version), 'webmail.sock');

/** The newest PHP installed here runs Roundcube. */
export const webmailPhp = (installed: PhpVersion[]): PhpVersion | undefined => [...installed].sort((a, b) => Number(b) - Number(a))[0];

/**
 * Roundcube's own pool (server/src/daemons/webmail.ts wrote its configuration): its own system
 * user, who may read that configuration and nothing of any customer's; its configuration folder
 * by ROUNDCUBE_CONFIG_DIR; PHP confined to Roundcube's and PEAR's folders; 25 MB attachments.
 */
export function renderWebmailPool(layout: WebLayout, version: PhpVersion, webmail: WebmailAgent): string {
  const temp = path.join(webmail.configDir, 'temp');
  return [
    '[berth-webmail]',
    ...(webmail.user
      ? [
          `user = ${webmail.user}`,
          `group = ${webmail.user}`,
          `listen.owner = ${layout.workerUser ?? webmail.user}`,
          `listen.group = ${layout.workerUser ?? webmail.user}`,
        ]
      : []),
    `listen = ${webmailSocket(layout, version)}`,
    'listen.mode = 0660',
    'pm = ondemand',
    'pm.max_children = 10',
    'pm.process_idle_timeout = 30s',
    'pm.max_requests = 500',
    `chdir = ${webmail.root}`,
    'security.limit_extensions = .php',
    `env[ROUNDCUBE_CONFIG_DIR] = ${webmail.configDir}`,
    'php_admin_value[cgi.fix_pathinfo] = 0',
    `php_admin_value[open_basedir] = /var/lib/roundcube/:/usr/share/roundcube/:/etc/roundcube/:/usr/share/php/:/usr/share/javascript/:${webmail.configDir}/`,
    `php_admin_value[upload_tmp_dir] = ${temp}`,
    `php_admin_value[sys_temp_dir] = ${temp}`,
    `php_admin_value[session.save_path] = ${temp}`,
    'php_admin_value[upload_max_filesize] = 25M',
    'php_admin_value[post_max_size] = 26M',
    'php_admin_value[memory_limit] = 128M',
    'php_admin_value[disable_functions] = exec,passthru,shell_exec,system,proc_open,popen,pcntl_exec',
    `php_admin_value[error_log] = ${logsDir(layout)}/webmail.php${version}.log`,
    'php_admin_flag[log_errors] = on',
    '',
  ].join('\n');
}
