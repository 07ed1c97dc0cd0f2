import { useState, type ComponentProps, type ReactNode } from 'react';
import { get, useForm, type DefaultValues, type Path } from 'react-hook-form';
import { Button, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormAlert } from './FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from './validation.ts';

type Values<Name extends string> = Record<Name, string>;

export interface SingleFieldFormProps<Name extends string> {
  /** The payload's schema: one string field, `name`. */
  schema: z.ZodType<Values<Name>, Values<Name>>;
  name: Name;
  submitLabel: string;
  /** Sends the value; what it throws is shown on the field or above the form. */
  onSubmit: (values: Values<Name>) => Promise<void>;
  /** The field's TextInput props (label, placeholder, autocomplete, look). */
  field?: ComponentProps<typeof TextInput>;
  /** Another input component with TextInput's props (e.g. EmailField). */
  as?: (props: ComponentProps<typeof TextInput>) => ReactNode;
}

/**
 * A form that asks one thing (an e-mail address, a code): the failure above it, the field, one
 * full-width submit button. The field starts focused.
 */
export function SingleFieldForm<Name extends string>({
  schema,
  name,
  submitLabel,
  onSubmit,
  field = {},
  as: Input = TextInput,
}: SingleFieldFormProps<Name>) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = useSchemaResolver(schema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm<Values<Name>, unknown, Values<Name>>({ resolver, defaultValues: { [name]: '' } as DefaultValues<Values<Name>> });
  const fieldName = name as unknown as Path<Values<Name>>;

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      setFormError(formErrorOf(error, [fieldName], setError, t));
    }
  });

  return (
    <>
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Input autoFocus {...field} error={(get(errors, name) as { message?: string } | undefined)?.message} {...register(fieldName)} />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </>
  );
}
