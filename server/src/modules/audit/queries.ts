import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

export const insertAuditEntry = (
  db: Db,
  entry: { tenant_id: number | null; user_id: number | null; action: string; ip: string | null; data: object; created_at: Date },
) =>
  db
    .insertInto('audit_log')
    .values({ ...entry, data: sql`${JSON.stringify(entry.data)}::jsonb` } as never)
    .execute();
