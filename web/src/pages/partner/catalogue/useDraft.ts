import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { check, errorsOfFailure, type FieldErrors } from './draft.ts';

interface SaveSteps<S extends z.ZodType, A> {
  schema: S;
  /** What the form holds, in the API's units (minor units, no leading dot). */
  payload: () => unknown;
  send: (data: z.output<S>) => Promise<A>;
  /** The notice when the server says nothing. */
  saved: string;
  onSaved?: (answer: A) => void;
}

/**
 * A catalogue form's state: the draft, an error per field (cleared as the field changes) and one
 * for the form. `submitWith` checks the draft with the contract's schema, saves, shows the
 * server's notice and puts the server's 422 texts on their fields.
 */
export function useDraft<D extends object>(initial: () => D) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<D>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = <K extends keyof D>(key: K, value: D[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors(({ [key as string]: _cleared, ...rest }) => rest);
  };

  const submitWith =
    <S extends z.ZodType, A extends { message?: string | undefined }>(steps: SaveSteps<S, A>) =>
    async (event: FormEvent) => {
      event.preventDefault();
      setFormError(null);
      const checked = check(steps.schema, steps.payload(), t);
      if (checked.errors) {
        setErrors(checked.errors);
        return;
      }
      try {
        const answer = await steps.send(checked.data);
        pushMessage({ type: 'notice', data: answer.message ?? steps.saved, timeout: NOTICE_TIMEOUT_MS });
        steps.onSaved?.(answer);
      } catch (error) {
        const failure = errorsOfFailure(error, t);
        setErrors(failure.fields);
        setFormError(failure.form);
      }
    };

  return { draft, setDraft, set, errors, formError, submitWith };
}
