import { isStorageFull, type StorageWatch } from '../db/storage.ts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldErrors } from '@berth/contracts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { isMessageKey, translate, type MessageKey } from '../i18n/messages.ts';
import { HashingInterrupted } from '../lib/password.ts';

/** How long a client should wait before retrying while a dependency is down. */
export const UNAVAILABLE_RETRY_SECONDS = 5;
// The request's `lang` is declared in request.ts; programs that reach this file without the app
// (the e2e seed) need the declaration too.
import type {} from './request.ts';

type Params = Record<string, string | number>;

/** An answer with a status and a translated message; services throw it, the handler renders it. */
export class HttpError extends Error {
  readonly status: number;
  readonly key: MessageKey;
  readonly params: Params;
  readonly fieldErrors: Record<string, { key: MessageKey; params?: Params }[]> | undefined;
  readonly headers: Record<string, string>;
  /** A machine-readable reason the web acts on (errorAnswerSchema's `code`). */
  readonly code: string | undefined;

  constructor(
    status: number,
    key: MessageKey,
    options: {
      params?: Params;
      fields?: Record<string, { key: MessageKey; params?: Params }[]>;
      headers?: Record<string, string>;
      code?: string;
    } = {},
  ) {
    super(key);
    this.status = status;
    this.key = key;
    this.params = options.params ?? {};
    this.fieldErrors = options.fields;
    this.headers = options.headers ?? {};
    this.code = options.code;
  }
}

/** 429 with Retry-After; the text says how long to wait in the reader's language. */
export const tooManyRequests = (key: MessageKey, seconds: number): HttpError =>
  new HttpError(429, key, { params: { seconds }, headers: { 'retry-after': String(seconds) } });

/** "15 minutes", "15 Minuten", "15 minut": a wait people read at a glance. */
function humanWait(lang: string, seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const [value, unit] = seconds < 60 ? [seconds, 'second'] : [minutes, 'minute'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

const withWait = (lang: string, params: Params): Params =>
  typeof params.seconds === 'number' ? { ...params, wait: humanWait(lang, params.seconds) } : params;

/** A message made of another (`Line 12: {problem}`): `problemKey` names it, translated with the same params. */
const withProblem = (lang: Parameters<typeof translate>[0], params: Params | undefined): Params | undefined =>
  params && typeof params.problemKey === 'string' && isMessageKey(params.problemKey)
    ? { ...params, problem: translate(lang, params.problemKey, params) }
    : params;

/** 422 with one translated error on one field. */
export const fieldError = (field: string, key: MessageKey, params?: Params): HttpError =>
  new HttpError(422, key, { params, fields: { [field]: [{ key, params }] } });

interface ZodIssueParams {
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  input?: unknown;
}

function validationMessage(code: string, message: string, params: ZodIssueParams): { key: MessageKey; params?: Params } {
  // Shared schemas name their own message keys (e.g. `validation.email`), so web and server agree.
  if (isMessageKey(message)) return { key: message };
  if (code === 'invalid_type' && params.input === undefined) return { key: 'validation.required' };
  if (code === 'too_small' && params.minimum !== undefined) {
    return Number(params.minimum) === 1
      ? { key: 'validation.required' }
      : { key: 'validation.too_short', params: { min: Number(params.minimum) } };
  }
  if (code === 'too_big' && params.maximum !== undefined) {
    return { key: 'validation.too_long', params: { max: Number(params.maximum) } };
  }
  if (code === 'invalid_format' && params.format === 'email') return { key: 'validation.email' };
  return { key: 'validation.invalid' };
}

/** How long a client waits before trying a write again while the storage is full. */
const STORAGE_FULL_RETRY_SECONDS = 30;

/** One place turns every failure into the envelope: field errors 422, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance, storage?: StorageWatch): void {
  // A write that went through: the storage has room (again).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) storage?.noteWritten();
  });
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    // The language is known before anything can fail, except when the request context itself fails.
    const lang = request.lang ?? 'en';
    if (error instanceof HttpError) {
      const errors: FieldErrors | undefined = error.fieldErrors
        ? Object.fromEntries(
            Object.entries(error.fieldErrors).map(([field, list]) => [
              field,
              list.map((item) => translate(lang, item.key, withProblem(lang, item.params))),
            ]),
          )
        : undefined;
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({
          message: translate(lang, error.key, withWait(lang, error.params)),
          ...(error.code ? { code: error.code } : {}),
          ...(errors ? { errors } : {}),
        });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        const text = validationMessage(issue.keyword, issue.message ?? '', issue.params as ZodIssueParams);
        (errors[field] ??= []).push(translate(lang, text.key, text.params));
      }
      return reply.code(422).send({ message: translate(lang, 'validation.failed'), errors });
    }
    if (isStorageFull(error)) {
      // Nothing was written (the transaction failed as a whole): say so plainly, and when to try again.
      storage?.noteFull();
      request.log.error({ code: (error as { code?: unknown }).code, message: error.message }, 'storage full');
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_FULL_RETRY_SECONDS))
        .send({ message: translate(lang, 'http.storage_full') });
    }
    if (isDatabaseUnavailable(error) || error instanceof HashingInterrupted) {
      // Down or restarting (a hashing thread is replaced at once): a clean answer the client may
      // retry, and one log line, not a stack per request.
      const what = error instanceof HashingInterrupted ? 'hashing thread stopped' : 'database unavailable';
      request.log.warn({ code: (error as { code?: unknown }).code, message: error.message }, what);
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_SECONDS))
        .send({ message: translate(lang, 'http.unavailable') });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) {
      const seconds = Number(reply.getHeader('retry-after') ?? 60);
      return reply.code(429).send({ message: translate(lang, 'http.too_many_requests', withWait(lang, { seconds })) });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, unsupported media type, oversized body: the client's fault, said plainly.
      return reply.code(status === 404 ? 404 : status).send({
        message: translate(lang, status === 404 ? 'http.not_found' : 'http.bad_request'),
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: translate(lang, 'System.UnknownErrorCtrlF5') });
  });
}
