import { useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formErrorOf, useSchemaResolver } from './validation.ts';

/**
 * A form that sends its values and shows the server's answer: field errors under their fields,
 * the rest in one alert above the form, the success message after it. A new submit, also one the
 * browser-side check stops, clears the last alert, so an old error never stands above a new one.
 */
export function useAnswerForm<S extends z.ZodType<unknown, FieldValues>, Values extends FieldValues = z.input<S> & FieldValues>(options: {
  schema: S;
  defaultValues: DefaultValues<Values>;
  /** The fields a server error may name; errors for other fields join the alert. */
  fields: readonly Path<Values>[];
  send: (values: z.output<S>) => Promise<{ message?: string | undefined }>;
  /** Said when the answer carries no message. */
  doneText: string;
  /** What the form holds after a success (passwords are never kept). */
  afterDone: (values: z.output<S>) => DefaultValues<Values>;
  /** Turns an error into the alert's text; by default field errors go under fields, the rest above. */
  alertOf?: (error: unknown, applyFields: () => string | null) => string | null;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const resolver = useSchemaResolver<S, Values, z.output<S>>(options.schema);
  const form = useForm<Values, unknown, z.output<S>>({ resolver, defaultValues: options.defaultValues });

  const clear = () => {
    setFormError(null);
    setDone(null);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    clear();
    try {
      const answer = await options.send(values);
      setDone(answer.message ?? options.doneText);
      form.reset(options.afterDone(values));
    } catch (error) {
      const applyFields = () => formErrorOf(error, options.fields, form.setError, t);
      setFormError(options.alertOf ? options.alertOf(error, applyFields) : applyFields());
    }
  }, clear);

  return { form, onSubmit, formError, done, dismissDone: () => setDone(null) };
}
