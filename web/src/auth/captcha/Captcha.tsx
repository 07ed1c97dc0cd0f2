import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AltchaWidgetElement } from 'altcha/external';
import { captchaConfigAnswerSchema, type CaptchaConfig } from '@berth/contracts';
import { loadRecaptcha, showRecaptchaBadge } from './recaptcha.ts';
import classes from './Captcha.module.css';

/** What a form calls right before it submits. */
export interface CaptchaHandle {
  /**
   * A token for `g_recaptcha_response`, fresh for this submission: reCAPTCHA runs its action
   * now; ALTCHA hands over its solved payload once, solving a new challenge when needed.
   * Resolves to '' when no token can be had (the server then answers its field error).
   */
  execute(): Promise<string>;
  /** Starts over, e.g. after the server rejected a token (ALTCHA solves a new challenge). */
  reset(): void;
}

export interface CaptchaProps {
  /** Every token as it changes; '' while there is none. */
  onToken: (token: string) => void;
  /** The server's field error for `g_recaptcha_response`. */
  error?: string | undefined;
  ref?: Ref<CaptchaHandle>;
}

/** The challenge is valid for 10 minutes on the server; solve a new one before that. */
const ALTCHA_TOKEN_MAX_AGE_MS = 9 * 60_000;

type ConfigState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; config: CaptchaConfig };

/** The captcha of the registration form: ALTCHA (self-hosted) or Google reCAPTCHA v3, as the server says. */
export function Captcha({ onToken, error, ref }: CaptchaProps) {
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<ConfigState>({ status: 'loading' });
  const [failed, setFailed] = useState(false);
  const inner = useRef<CaptchaHandle>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/captcha', { credentials: 'same-origin', headers: { accept: 'application/json' }, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`GET /api/captcha: ${response.status}`);
        setState({ status: 'ready', config: captchaConfigAnswerSchema.parse(await response.json()).data });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [attempt]);

  useImperativeHandle(
    ref,
    () => ({
      execute: () => inner.current?.execute() ?? Promise.resolve(''),
      reset: () => inner.current?.reset(),
    }),
    [],
  );

  const retry = () => {
    setFailed(false);
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  };

  const config = state.status === 'ready' ? state.config : undefined;
  return (
    <Stack gap={6}>
      {config?.provider === 'altcha' ? (
        <AltchaField ref={inner} challengeUrl={config.challenge_url} onToken={onToken} onFailure={setFailed} error={error} />
      ) : null}
      {config?.provider === 'recaptcha' ? (
        <RecaptchaField ref={inner} siteKey={config.site_key} action={config.action} onToken={onToken} onFailure={setFailed} />
      ) : null}
      {state.status === 'failed' || failed ? (
        <Group gap="xs">
          <Text c="red" size="sm">
            {untypedT(t)('captcha.loadFailed', { defaultValue: 'The captcha could not be loaded.' })}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={retry}>
            {t('app.tryAgain')}
          </Button>
        </Group>
      ) : null}
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

/** `captcha.*` keys may not be in the typed resources yet; the English default covers that. */
function untypedT(t: unknown) {
  return t as (key: string, options: { defaultValue: string }) => string;
}

interface FieldProps {
  ref: Ref<CaptchaHandle>;
  onToken: (token: string) => void;
  onFailure: (failed: boolean) => void;
}

/* ---- ALTCHA ---- */

let altchaModule: Promise<unknown> | undefined;
function loadAltcha(): Promise<unknown> {
  altchaModule ??= import('./altcha-setup.ts').catch((reason: unknown) => {
    altchaModule = undefined;
    throw reason;
  });
  return altchaModule;
}

interface StateChangeDetail {
  state: string;
  payload: string | null;
}

function AltchaField({ ref, challengeUrl, onToken, onFailure, error }: FieldProps & { challengeUrl: string; error: string | undefined }) {
  const { i18n } = useTranslation();
  const [loaded, setLoaded] = useState(false);
  const widget = useRef<AltchaWidgetElement>(null);
  const token = useRef<{ value: string; at: number } | null>(null);
  // A payload is good for one submission: the server records each challenge it accepts.
  const spent = useRef(new Set<string>());
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });

  useEffect(() => {
    let live = true;
    loadAltcha().then(
      () => live && setLoaded(true),
      () => live && onFailure(true),
    );
    return () => {
      live = false;
    };
  }, [onFailure]);

  /** Solves a new challenge, or waits for the one in progress; '' when that fails. */
  const solve = useCallback(async (): Promise<string> => {
    const element = widget.current;
    if (!element) return '';
    if (element.getState() !== 'verifying') return (await element.verify())?.payload ?? '';
    return new Promise((resolve) => {
      const listener = (event: Event) => {
        const { state, payload } = (event as CustomEvent<StateChangeDetail>).detail;
        if (state === 'verifying') return;
        element.removeEventListener('statechange', listener);
        resolve(state === 'verified' ? (payload ?? '') : '');
      };
      element.addEventListener('statechange', listener);
    });
  }, []);

  useEffect(() => {
    const element = widget.current;
    if (!loaded || !element) return;
    let refresh: ReturnType<typeof setTimeout> | undefined;
    const listener = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateChangeDetail>).detail;
      clearTimeout(refresh);
      if (state === 'verified' && payload) {
        token.current = { value: payload, at: Date.now() };
        onTokenRef.current(payload);
        // Solve again before the server would call this challenge expired.
        refresh = setTimeout(() => void element.verify(), ALTCHA_TOKEN_MAX_AGE_MS);
      } else {
        token.current = null;
        onTokenRef.current('');
      }
    };
    element.addEventListener('statechange', listener);
    return () => {
      clearTimeout(refresh);
      element.removeEventListener('statechange', listener);
    };
  }, [loaded]);

  // The server rejected the submission: if it was given our token, that one is spent.
  useEffect(() => {
    const current = token.current;
    if (error && current && spent.current.has(current.value)) void solve();
  }, [error, solve]);

  useImperativeHandle(
    ref,
    () => ({
      async execute() {
        const current = token.current;
        let payload =
          current && !spent.current.has(current.value) && Date.now() - current.at < ALTCHA_TOKEN_MAX_AGE_MS ? current.value : '';
        if (!payload) payload = await solve();
        if (payload) spent.current.add(payload);
        return payload;
      },
      reset() {
        void widget.current?.verify();
      },
    }),
    [solve],
  );

  if (!loaded) return null;
  return (
    <altcha-widget
      ref={widget}
      className={classes.altcha}
      challenge={challengeUrl}
      auto="onload"
      // The widget's own footer advertises ALTCHA; the panel does not need it.
      configuration={JSON.stringify({ hideFooter: true })}
      language={i18n.resolvedLanguage ?? 'en'}
      name="g_recaptcha_response"
    />
  );
}

/* ---- Google reCAPTCHA v3 ---- */

function RecaptchaField({ ref, siteKey, action, onToken, onFailure }: FieldProps & { siteKey: string; action: string }) {
  useEffect(() => {
    let live = true;
    loadRecaptcha(siteKey).then(
      () => live && showRecaptchaBadge(true),
      () => live && onFailure(true),
    );
    return () => {
      live = false;
      showRecaptchaBadge(false);
    };
  }, [siteKey, onFailure]);

  useImperativeHandle(
    ref,
    () => ({
      // Tokens live two minutes, so one is fetched for each submission, never ahead.
      async execute() {
        try {
          const api = await loadRecaptcha(siteKey);
          const token = await api.execute(siteKey, { action });
          onFailure(false);
          onToken(token);
          return token;
        } catch {
          onFailure(true);
          onToken('');
          return '';
        }
      },
      reset() {
        onToken('');
      },
    }),
    [siteKey, action, onToken, onFailure],
  );

  return null;
}
