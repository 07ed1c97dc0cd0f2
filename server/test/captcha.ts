import type { FastifyInstance } from 'fastify';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** Solves the server's ALTCHA challenge as the browser widget does, and answers the token. */
export async function solveAltcha(app: FastifyInstance): Promise<string> {
  const challenge = (await app.inject({ url: '/api/captcha/altcha' })).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('ALTCHA challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
