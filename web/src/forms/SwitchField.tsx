import type { ReactNode } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { Switch } from '@mantine/core';

interface SwitchFieldProps<T extends FieldValues> {
  control: Control<T>;
  /** A boolean field of the form. */
  name: FieldPath<T>;
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
  size?: 'sm' | 'md';
}

/** A react-hook-form boolean as Mantine's Switch: checked, changed and blurred like an input. */
export function SwitchField<T extends FieldValues>({ control, name, label, description, error, size }: SwitchFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          ref={field.ref}
          name={field.name}
          checked={Boolean(field.value)}
          onChange={(event) => {
            field.onChange(event.currentTarget.checked);
          }}
          onBlur={field.onBlur}
          label={label}
          description={description}
          error={error}
          size={size}
        />
      )}
    />
  );
}
