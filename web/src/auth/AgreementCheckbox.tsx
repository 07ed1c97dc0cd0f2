import { Checkbox } from '@mantine/core';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/**
 * A required agreement. Mantine shows a checkbox error beside the box without tying it to the
 * input; our own text with an id lets screen readers announce it on the checkbox.
 */
export function AgreementCheckbox<T extends FieldValues>(props: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  error: string | undefined;
}) {
  const errorId = `${props.name}-error`;
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field: { value, onChange, onBlur, name, ref } }) => (
        <Checkbox
          label={props.label}
          name={name}
          ref={ref}
          checked={value === true}
          onChange={(event) => {
            onChange(event.currentTarget.checked);
          }}
          onBlur={onBlur}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
          error={props.error ? <span id={errorId}>{props.error}</span> : undefined}
        />
      )}
    />
  );
}
