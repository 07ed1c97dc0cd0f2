import { ERROR_CODES, errorAnswerSchema, type FieldErrors } from '@berth/contracts';
import type { z } from 'zod';

const API_BASE = '/api';

/** An API failure: the HTTP status (0 when the network failed), message and per-field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  /** Seconds from the Retry-After header of a 429, when the server sent one. */
  readonly retryAfter: number | undefined;
  /** The server's machine-readable reason (ERROR_CODES), when it sent one. */
  readonly code: string | undefined;

  constructor(status: number, message: string, fieldErrors: FieldErrors = {}, retryAfter?: number, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.retryAfter = retryAfter;
    this.code = code;
  }

  /** The provider requires a second factor the user has not set up yet (the shell then shows only that). */
  get isTwoFactorSetupRequired(): boolean {
    return this.status === 403 && this.code === ERROR_CODES.twoFactorSetupRequired;
  }

  get isUnauthenticated(): boolean {
    return this.status === 401;
  }

  get isValidation(): boolean {
    return this.status === 422;
  }

  get isThrottled(): boolean {
    return this.status === 429;
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
}

/** Message keys the web translates itself (see i18n/en.json "errors"). */
export const NETWORK_ERROR = 'errors.network';
export const UNEXPECTED_ANSWER = 'errors.unexpectedAnswer';

/** The message key for an error answer that carried no message of its own. */
function statusMessageKey(status: number): string {
  if (status === 401) return 'errors.unauthenticated';
  if (status === 403) return 'errors.forbidden';
  if (status === 404) return 'errors.notFound';
  if (status === 429) return 'errors.throttled';
  if (status >= 500) return 'errors.server';
  return 'errors.unknown';
}

let requestLanguage: string | undefined;

/**
 * The UI language, sent as Accept-Language so that server messages for visitors who are not
 * signed in match the language they picked (signed-in users get their account's language).
 */
export function setRequestLanguage(language: string): void {
  requestLanguage = language;
}

/** How a request goes out: the browser's fetch, or the server's own answers when it renders a page (prerender/shellPage.tsx). */
type Sender = (url: string, init: RequestInit) => Promise<Response>;
let send: Sender = (url, init) => fetch(url, init);

/** Only for the server-side render of a page, which answers the app's GETs itself. */
export function setApiSender(sender: Sender): void {
  send = sender;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions<S extends z.ZodType> {
  method?: Method;
  body?: unknown;
  /** Schema of a successful answer; omit for answers whose body is ignored. */
  schema?: S;
  signal?: AbortSignal;
}

function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Calls the JSON API under /api with the session cookie. Resolves with the answer parsed by
 * `schema`; rejects with an ApiError for network failures, error statuses and answers that do
 * not match the contract.
 */
export async function apiRequest<S extends z.ZodType = z.ZodUnknown>(
  path: string,
  { method = 'GET', body, schema, signal }: RequestOptions<S> = {},
): Promise<z.output<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A FormData body (file uploads) is sent as multipart; the browser sets its boundary.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (requestLanguage) headers['Accept-Language'] = requestLanguage;

  let response: Response;
  try {
    response = await send(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : isForm ? body : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR);
  }

  const json = await readJson(response);

  if (!response.ok) {
    const parsed = errorAnswerSchema.safeParse(json);
    const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
    if (parsed.success) {
      throw new ApiError(response.status, parsed.data.message, parsed.data.errors, retryAfter, parsed.data.code);
    }
    throw new ApiError(response.status, statusMessageKey(response.status), {}, retryAfter);
  }

  if (!schema) return json as z.output<S>;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(response.status, UNEXPECTED_ANSWER);
  }
  return parsed.data;
}
