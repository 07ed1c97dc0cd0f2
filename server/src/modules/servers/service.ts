import type { WebServer } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { listServers } from './queries.ts';

/** Every server as /system/servers shows it: its sites and what its agent last reported. */
export async function serversOverview(db: Db): Promise<WebServer[]> {
  return (await listServers(db)).map((row) => ({
    id: row.id,
    name: row.name,
    address: row.address,
    roles: row.roles,
    sites: Number(row.sites ?? 0),
    php_versions: row.php_versions ?? [],
    reported_at: row.reported_at === null ? null : new Date(row.reported_at).toISOString(),
  }));
}
