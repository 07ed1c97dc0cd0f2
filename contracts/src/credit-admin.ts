import { z } from 'zod';
import { idSchema } from './hosting.ts';
import { creditQuerySchema } from './shop.ts';

/*
 * Admins reading another user's credit: the same balance, ledger filters, keyset pages and CSV as
 * the user's own /api/credit (answers are creditAnswerSchema). Super admins see any user, host
 * admins the users of their tenant (anyone else answers 404); customers get 403.
 *
 * Routes (all under /api):
 *   GET    /system/credit/{userId}?from&to&type&cursor&limit   creditAnswerSchema
 *   GET    /system/credit/{userId}/export.csv?from&to&type     text/csv
 */

export const creditUserParamsSchema = z.object({ userId: idSchema });
export type CreditUserParams = z.infer<typeof creditUserParamsSchema>;

/** The CSV export's filters: the ledger's, without paging. */
export const creditExportQuerySchema = creditQuerySchema.omit({ cursor: true, limit: true });
export type CreditExportQuery = z.infer<typeof creditExportQuerySchema>;
