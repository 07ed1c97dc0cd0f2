import type { MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { get, type FieldErrors, type FieldValues, type Path, type UseFormRegister } from 'react-hook-form';
import { PasswordField, usePasswordHint } from './PasswordField.tsx';

interface NewPasswordFieldsProps<T extends FieldValues> {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  password: Path<T>;
  confirmation: Path<T>;
  /** A new account's first password ("Password"), not a changed one ("New password"). */
  first?: boolean;
  autoFocus?: boolean;
  /** Focus the first field when the dialog around it opens (Mantine's `data-autofocus`). */
  dialogFocus?: boolean;
  size?: MantineSize;
  /** Another hint under the password than the rules (e.g. for an admin setting a first password). */
  hint?: string;
  /** The hint below the input rather than above, so two fields side by side line up. */
  hintBelow?: boolean;
  /** Marked as required (an asterisk after the label). */
  required?: boolean;
}

/**
 * A new password with the server's rules under it, and its confirmation: the pair every form
 * that sets a password asks for (the schema adds the checks: validation.ts withNewPassword).
 */
export function NewPasswordFields<T extends FieldValues>({
  register,
  errors,
  password,
  confirmation,
  first = false,
  autoFocus,
  dialogFocus,
  size,
  hint,
  hintBelow = false,
  required,
}: NewPasswordFieldsProps<T>) {
  const { t } = useTranslation();
  const rules = usePasswordHint();
  const messageOf = (name: Path<T>) => (get(errors, name) as { message?: string } | undefined)?.message;
  return (
    <>
      <PasswordField
        label={t(first ? 'fields.password' : 'fields.newPassword')}
        description={hint ?? rules}
        inputWrapperOrder={hintBelow ? ['label', 'input', 'description', 'error'] : undefined}
        required={required}
        autoComplete="new-password"
        autoFocus={autoFocus}
        data-autofocus={dialogFocus || undefined}
        size={size}
        error={messageOf(password)}
        {...register(password)}
      />
      <PasswordField
        label={t(first ? 'fields.confirmPassword' : 'fields.confirmNewPassword')}
        required={required}
        autoComplete="new-password"
        size={size}
        error={messageOf(confirmation)}
        {...register(confirmation)}
      />
    </>
  );
}
