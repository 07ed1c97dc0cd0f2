import type { Db } from '../../db/connection.ts';

export const findTwoFactorRules = (db: Db, tenantId: number) =>
  db.selectFrom('tenants').select(['require_2fa_customers', 'require_2fa_admins']).where('id', '=', tenantId).executeTakeFirst();

export const setTwoFactorRule = (db: Db, tenantId: number, column: 'require_2fa_customers' | 'require_2fa_admins', value: boolean) =>
  db
    .updateTable('tenants')
    .set({ [column]: value })
    .where('id', '=', tenantId)
    .execute();
