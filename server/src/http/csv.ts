import type { FastifyReply } from 'fastify';

/** A CSV answer the browser saves as `filename`. */
export const sendCsv = (reply: FastifyReply, csv: string, filename: string) =>
  reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(csv);
