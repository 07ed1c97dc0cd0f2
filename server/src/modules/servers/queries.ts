import type { Db } from '../../db/connection.ts';

/** Every server with its site count and what its agent last reported (migrations 0030, 0031). */
export const listServers = (db: Db) =>
  db
    .selectFrom('servers as s')
    .leftJoin('web.server_status as st', 'st.server_id', 's.id')
    .select((eb) => [
      's.id',
      's.name',
      's.address',
      's.roles',
      'st.php_versions',
      'st.reported_at',
      eb.selectFrom('domains as d').select(eb.fn.countAll<string>().as('n')).whereRef('d.web_server_id', '=', 's.id').as('sites'),
    ])
    .orderBy('s.name')
    .execute();
