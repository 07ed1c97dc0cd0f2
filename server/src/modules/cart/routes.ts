import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cartAnswerSchema } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { authedUser, requireUser } from '../../http/context.ts';
import { listCartItems } from './queries.ts';

const money = (minor: number, currency: string, language: string): string =>
  new Intl.NumberFormat(language, { style: 'currency', currency }).format(minor / 100);

export function cartRoutes(db: Db) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/cart',
      { preHandler: requireUser, schema: { tags: ['shop'], summary: "The user's server-side cart", response: { 200: cartAnswerSchema } } },
      async (request) => {
        const { user } = authedUser(request);
        const rows = await listCartItems(db, user.id);
        return {
          data: {
            rows: rows.map((row) => ({ id: row.id, title: row.title, price_formatted: money(Number(row.price_minor), row.currency, user.language) })),
          },
        };
      },
    );
  };
}
